use super::*;
use std::os::unix::fs::symlink;

fn lesson(dir: &Path, name: &str) {
    std::fs::write(dir.join(name), b"{}").unwrap();
}

fn mkfifo(path: &Path) {
    // mkfifo(1) rather than libc: the crate forbids unsafe code.
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "mkfifo {}", path.display());
}

#[test]
fn link_cycles_are_walked_once() {
    let root = tempfile::tempdir().unwrap();
    let sub = root.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    lesson(root.path(), "a.json");
    lesson(&sub, "b.json");
    symlink(".", root.path().join("x")).unwrap();
    symlink(".", root.path().join("y")).unwrap();
    symlink("..", sub.join("up")).unwrap();
    symlink(".", sub.join("self")).unwrap();
    let walk = tree(root.path());
    assert_eq!(
        walk.files,
        vec![root.path().join("a.json"), sub.join("b.json")]
    );
    assert!(walk.skipped.iter().all(|s| s.why.contains("already read")));
}

#[test]
fn a_link_to_a_folder_elsewhere_is_followed() {
    let root = tempfile::tempdir().unwrap();
    let other = tempfile::tempdir().unwrap();
    lesson(other.path(), "o.json");
    symlink(other.path(), root.path().join("there")).unwrap();
    assert_eq!(
        tree(root.path()).files,
        vec![root.path().join("there/o.json")]
    );
}

#[test]
fn fifos_are_skipped_and_never_opened() {
    let root = tempfile::tempdir().unwrap();
    let fifo = root.path().join("pipe.json");
    mkfifo(&fifo);
    symlink(&fifo, root.path().join("link.json")).unwrap();
    lesson(root.path(), "a.json");
    let walk = tree(root.path());
    assert_eq!(walk.files, vec![root.path().join("a.json")]);
    assert_eq!(walk.skipped.len(), 2);
    assert!(walk.skipped[0].message().contains("FIFO"));
    let (folder_walk, _) = folder(root.path()).unwrap();
    assert_eq!(folder_walk.files, walk.files);
    // Named directly, too.
    assert_eq!(tree(&fifo).skipped.len(), 1);
    // Reading it is refused at once (a blocking open would hang here).
    let err = read_regular(&fifo).unwrap_err();
    assert!(err.to_string().contains("FIFO"), "{err}");
    assert!(read_regular(Path::new("/dev/null")).is_err());
    assert!(read_regular(root.path()).is_err());
    assert_eq!(read_regular(&root.path().join("a.json")).unwrap(), b"{}");
}

#[test]
fn names_that_are_not_utf8_survive() {
    let root = tempfile::tempdir().unwrap();
    let name = os_from_bytes(b"caf\xe9.json");
    std::fs::write(root.path().join(&name), b"{}").unwrap();
    let walk = tree(root.path());
    assert_eq!(walk.files, vec![root.path().join(&name)]);
    assert_eq!(os_from_bytes(os_bytes(&name)), name);
    assert_eq!(read_regular(&walk.files[0]).unwrap(), b"{}");
    assert!(shown(&walk.files[0]).ends_with("caf\u{fffd}.json"));
}

#[test]
fn digests_tell_same_sized_contents_apart() {
    assert_ne!(digest(b"{\"title\": \"A\"}"), digest(b"{\"title\": \"B\"}"));
    assert_ne!(digest(b""), digest(b"\0"));
    assert_eq!(digest(b"same"), digest(b"same"));
}
