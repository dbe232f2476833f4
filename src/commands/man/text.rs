//! The man page's prose sections: what the code decides, written down
//! once here (a test holds ENVIRONMENT to the variables the code reads).

type Section = (&'static str, &'static [(&'static str, &'static str)]);

pub(super) const SECTIONS: &[Section] = &[
    ("FILES", FILES),
    ("ENVIRONMENT", ENVIRONMENT),
    ("EXIT STATUS", EXIT_STATUS),
    ("EXAMPLES", EXAMPLES),
];

const FILES: &[(&str, &str)] = &[
    (
        "",
        "Folders are the platform's: on Linux and the BSDs the XDG ones shown here, on macOS \
         ~/Library/Application Support/lectern and ~/Library/Caches/lectern. With no absolute \
         HOME there are none: progress is kept in memory for the session, and lectern says so.",
    ),
    (
        "$XDG_DATA_HOME/lectern/progress.db",
        "Progress (default ~/.local/share/lectern/): where each course was left, lessons read, \
         answers, the review schedule; an SQLite database, the one file to back up. Never put \
         it in a synced folder (a sync tool copying a live database damages it): sync-dir is \
         how progress travels. --data-dir or LECTERN_DATA_DIR names another folder.",
    ),
    (
        "SYNC/lectern/DEVICE.log",
        "With sync-dir (or --sync-dir, LECTERN_SYNC_DIR) set to SYNC, a folder a sync tool \
         carries between machines: each machine's changes to the progress, appended to its own \
         log (DEVICE is its random id, kept in progress.db), one JSON record a line with its \
         checksum, never rewritten; every other *.log there is another machine's (a conflict \
         copy of one too), merged in at each start, every few seconds while the reader runs, \
         and by lectern sync. Deleting a log loses nothing: its machine writes it again.",
    ),
    (
        "$XDG_DATA_HOME/lectern/progress.db.pending-*",
        "Progress that could not be written at once (the database busy or locked), one JSON line \
         a change; taken into progress.db by the next run that can.",
    ),
    (
        "$XDG_CACHE_HOME/lectern/",
        "The search index (index.db) and folder listings (listings/) (default ~/.cache/lectern/): \
         derived from the lesson files and rebuilt when missing or stale; deleting it loses \
         nothing. LECTERN_CACHE_DIR names another folder.",
    ),
    (
        "$XDG_CONFIG_HOME/lectern/config.toml",
        "Settings (default ~/.config/lectern/config.toml; see CONFIGURATION). --config or \
         LECTERN_CONFIG names another file.",
    ),
];

pub(super) const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "LECTERN_DATA_DIR",
        "The folder of progress.db, unless --data-dir is given.",
    ),
    ("LECTERN_CACHE_DIR", "The folder of the search index."),
    (
        "LECTERN_SYNC_DIR",
        "The sync folder, unless --sync-dir is given; over the config file's sync-dir.",
    ),
    (
        "LECTERN_CONFIG",
        "The config file, unless --config is given; unlike the usual place, a missing file \
         named here is said.",
    ),
    (
        "XDG_DATA_HOME, XDG_CACHE_HOME, XDG_CONFIG_HOME, HOME",
        "Where the folders of FILES are, as the XDG base directory specification says.",
    ),
    (
        "NO_COLOR",
        "Set and not empty: no colour (the mono theme), whatever the terminal.",
    ),
    (
        "CLICOLOR",
        "0: no colour (unless CLICOLOR_FORCE is set); 1: colour on a terminal even when TERM \
         is dumb.",
    ),
    (
        "CLICOLOR_FORCE",
        "Set and not 0: colour even when standard output is not a terminal (lectern render, and \
         lectern PATH on a pipe); NO_COLOR still wins.",
    ),
    (
        "COLORTERM",
        "truecolor or 24bit: 24-bit colour (the config file's truecolor overrides it either way); \
         else 256 colours.",
    ),
    (
        "TERM",
        "dumb or unset: no colour, and lectern PATH prints the lessons as lectern render does instead of \
         opening the reader.",
    ),
    (
        "COLORFGBG",
        "fg;bg, set by some terminals: a light background (7, or 9-15) chooses the light theme \
         when the terminal does not answer lectern's question about its background.",
    ),
];

const EXIT_STATUS: &[(&str, &str)] = &[
    (
        "0",
        "Success: the reader was quit, or what was asked was printed.",
    ),
    (
        "1",
        "An error, said on standard error: a path that is missing or is no lesson, a lesson that \
         does not load, a lint error, a search that matched nothing (as grep(1)).",
    ),
    (
        "2",
        "A usage error: an unknown option or command, a missing or bad argument.",
    ),
    ("70", "Out of memory (EX_SOFTWARE)."),
    (
        "141",
        "Standard output was closed under a write (a pipe to head(1)): 128 + SIGPIPE.",
    ),
    (
        "128 + N",
        "The reader was ended by signal N (SIGHUP 129, SIGINT 130, SIGQUIT 131, SIGTERM 143), \
         after giving the terminal back and keeping the progress not yet written.",
    ),
];

const EXAMPLES: &[(&str, &str)] = &[
    (
        "lectern",
        "Open the course read last where it was left; the first time, the built-in guide.",
    ),
    (
        "lectern ~/courses/rust",
        "Open a course folder (or a lesson file in it, an mdBook, or a folder of courses).",
    ),
    (
        "lectern render --color always lesson.json | less -R",
        "Print a lesson as styled text to page through.",
    ),
    (
        "lectern lint ~/courses/rust",
        "Check every lesson of a course; status 1 on an error.",
    ),
    (
        "lectern search ~/courses/rust \"borrow checker\" 'lifetime*'",
        "Lessons of the course with the phrase and a word beginning with lifetime.",
    ),
    (
        "lectern review",
        "Review the checks that are due, from every course of the library.",
    ),
    (
        "lectern --sync-dir ~/Sync sync --name laptop",
        "Keep progress in step with other machines through a Syncthing (or Dropbox, git, USB) \
         folder, this one called laptop; sync-dir = \"~/Sync\" in the config file does it for \
         good.",
    ),
    (
        "lectern man > lectern.1; lectern completions bash > lectern.bash",
        "Install this page and shell completions.",
    ),
];
