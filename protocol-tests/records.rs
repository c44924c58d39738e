//! Fields of the shared test data's one-line JSON records, read without a JSON crate:
//! the records are flat, and a key's value is found by its text.

/// The text of a file of the shared test data beside the repository.
pub fn shared(name: &str) -> String {
    let path = format!("{}/../shared/testdata/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// The raw JSON text of `key`'s value in a one-line record.
pub fn field<'a>(record: &'a str, key: &str) -> &'a str {
    let start = record
        .find(&format!("\"{key}\": "))
        .unwrap_or_else(|| panic!("no {key}"))
        + key.len()
        + 4;
    &record[start..]
}

pub fn number(record: &str, key: &str) -> usize {
    let text = field(record, key);
    let end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    text[..end].parse().expect("a number")
}

pub fn points(record: &str, key: &str) -> Vec<(usize, usize)> {
    points_of(field(record, key))
}

/// The `[x, y]` pairs at the start of `text`: either one pair or a list of pairs.
pub fn points_of(text: &str) -> Vec<(usize, usize)> {
    let nested = text.starts_with("[[") || text.starts_with("[]");
    let end = if nested {
        text.find("]]").map_or(2, |i| i + 2)
    } else {
        text.find(']').unwrap() + 1
    };
    let numbers: Vec<usize> = text[..end]
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    numbers.chunks(2).map(|p| (p[0], p[1])).collect()
}
