//! Build profiles: the one place that reads cargo features (and the only module allowed
//! to), turning them into plain values the rest of the crate uses.
//!
//! | Profile | Built by | Default threads | Per-iteration `MESSAGE` lines |
//! |---|---|---|---|
//! | `default` | `cargo build --release` | every core | on |
//! | `competition` | `--features competition` (Linux tournament build) | 1 | off |
//! | `windows` | `--features windows` (the Gomocup exe) | 1 | off |
//!
//! `windows` takes precedence when both features are on: it is the tournament build
//! for the Windows target. Nothing here may reach search or evaluation, so the bench
//! node count is the same in every profile.
//!
//! Expected users: `BUILD_PROFILE` by `ABOUT` and the command-line banner;
//! `default_threads` by the engine before (or without) the manager's `INFO thread_num`;
//! `VERBOSE_MESSAGES` by the protocol layer's search reports; `exe_dir` by anything that
//! loads files shipped beside the exe.

use std::num::NonZeroUsize;
use std::path::PathBuf;

/// A build profile, chosen by cargo features.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Profile {
    /// The build for people: GUIs, the terminal game, the arena.
    Default,
    /// The Linux tournament build.
    Competition,
    /// The Gomocup build for Windows.
    Windows,
}

impl Profile {
    /// The profile selected by the `competition` and `windows` features.
    pub const fn from_features(competition: bool, windows: bool) -> Profile {
        match (competition, windows) {
            (_, true) => Profile::Windows,
            (true, false) => Profile::Competition,
            (false, false) => Profile::Default,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Profile::Default => "default",
            Profile::Competition => "competition",
            Profile::Windows => "windows",
        }
    }

    /// Search threads when the manager does not say (`INFO thread_num`).
    ///
    /// Tournament builds use one. The Gomocup rules promise a time and a memory budget,
    /// not cores: a tournament machine runs one match per client and several clients
    /// side by side, each held to its share of the cores (the 2009 report tells of
    /// multithreaded AIs breaking that), so a second thread competes with the first
    /// and with the neighbours' games instead of adding speed. The default build runs on
    /// a person's own machine, where every core is theirs.
    pub fn default_threads(self) -> usize {
        match self {
            Profile::Default => std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
            Profile::Competition | Profile::Windows => 1,
        }
    }

    /// Whether search reports every finished iteration as a `MESSAGE` line (depth,
    /// evaluation, principal variation). Tournament builds print one summary per move:
    /// GomocupJudge keeps and publishes every `MESSAGE`, and the lines cost time on the
    /// clock for nobody's benefit.
    pub const fn verbose_messages(self) -> bool {
        matches!(self, Profile::Default)
    }
}

/// The profile this binary was built with.
pub const PROFILE: Profile =
    Profile::from_features(cfg!(feature = "competition"), cfg!(feature = "windows"));

/// The profile's name, for `ABOUT` and banners.
pub const BUILD_PROFILE: &str = PROFILE.name();

/// Whether search reports every iteration as a `MESSAGE` line in this build.
pub const VERBOSE_MESSAGES: bool = PROFILE.verbose_messages();

/// Search threads when the manager does not say, for this build.
pub fn default_threads() -> usize {
    PROFILE.default_threads()
}

/// The folder holding the running executable. Managers choose the working directory,
/// so files shipped with the brain are found from here, never from the current
/// directory. `None` if the operating system cannot tell.
pub fn exe_dir() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    exe.parent().map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_select_profile() {
        assert_eq!(Profile::from_features(false, false), Profile::Default);
        assert_eq!(Profile::from_features(true, false), Profile::Competition);
        assert_eq!(Profile::from_features(false, true), Profile::Windows);
        assert_eq!(Profile::from_features(true, true), Profile::Windows);
    }

    #[test]
    fn build_matches_features() {
        let expected = if cfg!(feature = "windows") {
            "windows"
        } else if cfg!(feature = "competition") {
            "competition"
        } else {
            "default"
        };
        assert_eq!(BUILD_PROFILE, expected);
    }

    #[test]
    fn tournament_builds_use_one_quiet_thread() {
        for profile in [Profile::Competition, Profile::Windows] {
            assert_eq!(profile.default_threads(), 1);
            assert!(!profile.verbose_messages());
        }
        assert!(Profile::Default.verbose_messages());
        assert!(Profile::Default.default_threads() >= 1);
    }

    #[test]
    fn exe_dir_holds_the_running_binary() {
        let exe = std::env::current_exe().unwrap();
        let dir = exe_dir().unwrap();
        assert!(dir.join(exe.file_name().unwrap()).is_file());
    }
}
