
pub mod load;
