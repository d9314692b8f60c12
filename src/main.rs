//! The `cubed` binary: the command line (`cubed::command_line_main`, in the library's `cli`).

fn main() -> std::process::ExitCode {
    cubed::command_line_main()
}
