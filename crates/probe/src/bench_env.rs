//! bench-env env.json (being written).
