//! What `reprise preflight campfire-runtimes --json` must say on a machine
//! without what building and bundling Campfire needs.

use serde_json::Value;

/// A toolchain item of a preflight report, by name.
pub fn item(report: &Value, name: &str) -> Value {
    report["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == format!("toolchain {name}"))
        .unwrap_or_else(|| panic!("no item for {name}: {report}"))
        .clone()
}

/// Each prerequisite besides the runtimes is named as not matching, with
/// the fix a reader copies.
pub fn assert_each_is_named_with_its_fix(report: &Value) {
    for (name, fix) in [
        ("libclang", "sudo apt-get install libclang-dev"),
        ("libjemalloc", "sudo apt-get install libjemalloc2"),
        ("cargo", "rustup update stable"),
        ("ruby-headers", "sudo apt-get install ruby-dev"),
        ("cc", "sudo apt-get install build-essential"),
        (
            "openssl-headers",
            "sudo apt-get install libssl-dev pkg-config",
        ),
        (
            "libyaml-headers",
            "sudo apt-get install libyaml-dev pkg-config",
        ),
        ("zlib-headers", "sudo apt-get install zlib1g-dev pkg-config"),
    ] {
        let found = item(report, name);
        assert_ne!(found["verdict"], "matches", "{name}: {found}");
        assert_eq!(found["fix"], fix, "{name}: {found}");
    }
}
