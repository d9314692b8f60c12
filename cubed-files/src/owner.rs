//! Who owns a file, by name, when it is not this process's user: what messages about permissions name.

use std::path::Path;

/// The name (else "uid N") of the user `path` belongs to, when that is not this process's
/// user; None when it is, or when `path` cannot be looked at.
pub fn another_owner(path: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let uid = std::fs::metadata(path).ok()?.uid();
    if uid == nix::unistd::geteuid().as_raw() {
        return None;
    }
    Some(user_name(uid))
}

/// This process's user, by name.
pub fn this_user() -> String {
    user_name(nix::unistd::geteuid().as_raw())
}

/// The name of user `uid`, else "uid N".
fn user_name(uid: u32) -> String {
    let user = nix::unistd::User::from_uid(uid.into()).ok().flatten();
    user.map_or_else(|| format!("uid {uid}"), |u| u.name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn this_users_own_file_has_no_other_owner() {
        let file = tempfile::NamedTempFile::new().expect("a file");
        assert_eq!(super::another_owner(file.path()), None);
        assert!(!super::this_user().is_empty());
        assert_eq!(
            super::another_owner(std::path::Path::new("/no/such/file")),
            None
        );
    }
}
