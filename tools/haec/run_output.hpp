// Where a run's results go: --out is checked before anything runs, the staging directory is made
// next to it, and a failed run's log or directory is kept where the README promises
// ("Errors and failures").
#pragma once
#include <filesystem>
#include <string>

namespace haec::cli {

// Throws InputError (exit 2, one line) for an --out that cannot hold a result directory: empty,
// an existing file, an existing directory without --force or, with --force, one that is neither
// empty nor a haec result directory (--force never deletes anything else).
void check_out_dir(const std::string& given, const std::filesystem::path& out, bool force);

// Creates the parent directories and a fresh staging directory "<out>.tmp-<pid>"; InputError
// naming --out when the location is not writable.
std::filesystem::path make_stage(const std::string& given, const std::filesystem::path& out);

// `haec map --out DIR`: refuses an empty name, a file, or a DIR already holding hostfile or
// mapping.txt without --force.
void check_map_out(const std::string& dir, bool force);
// create_directories, with an InputError naming `what` when the location is not writable.
void make_directory(const std::string& what, const std::filesystem::path& dir);

// Where a failed run keeps its log (<out>.failed.log) and, with --keep-failed, its directory
// (<out>, or <out>.failed when <out> holds an earlier result). `haec trace record` moves both
// next to the trace (HAEC_FAILED_PREFIX, set for the `haec run` it starts).
std::filesystem::path failed_log_path(const std::filesystem::path& out);
std::filesystem::path failed_dir_path(const std::filesystem::path& out);

// Moves the staged directory into place, replacing an existing (checked) result directory.
void move_into_place(const std::filesystem::path& stage, const std::filesystem::path& out);

} // namespace haec::cli
