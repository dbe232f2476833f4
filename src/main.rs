// Every allocation through lectern's guard: a failed one gives the
// terminal back and exits with a line, instead of aborting with the
// terminal raw (src/alloc_guard.rs).
#[global_allocator]
static ALLOCATOR: lectern::alloc_guard::Guarded = lectern::alloc_guard::Guarded;

fn main() -> std::process::ExitCode {
    lectern::run()
}
