// Running a campaign's runs: each run is one `haec run` into DIR/runs/<id> (haec run moves its
// result directory into place only when the run succeeded, so a finished run is exactly a
// directory holding summary.json), its output in DIR/logs/<id>.log.
#pragma once
#include "campaign_file.hpp"
#include "commands.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace haec::cli {

enum class RunState { pending, done, failed };

struct CampaignPlan {
  Campaign campaign;
  std::filesystem::path out;          // DIR, absolute
  std::vector<RunPreview> previews;   // per run: ranks and nodes, from haec run's checks
  std::vector<RunState> states;       // per run
  size_t finished_before = 0;         // runs finished by earlier campaigns
};

// "campaign: N runs, K already finished" on stderr, once the executor starts the runs.
void announce(const CampaignPlan& p);

std::filesystem::path run_dir(const CampaignPlan& p, size_t i);
std::filesystem::path log_path(const CampaignPlan& p, size_t i);
// The full haec run command line of run i (argv[0] is this haec).
std::vector<std::string> run_argv(const CampaignPlan& p, size_t i);
bool run_finished(const CampaignPlan& p, size_t i);

// Runs the pending runs, `jobs` at a time, with a progress line on stderr; marks each done or
// failed. Returns 0, or 128 + the signal when interrupted (process.hpp: SIGINT, SIGTERM, SIGHUP...;
// the runs going are stopped, whole process groups, and leave no staging directory).
int run_local(CampaignPlan& p, int jobs);

// Throws InputError (one line) when no Slurm controller answers `scontrol ping`.
void check_slurm_reachable();

// The same runs as one Slurm job array; throws when sbatch refuses it (nothing submitted). Returns
// 0, or 128 + the signal when interrupted (the job is cancelled).
int run_slurm(CampaignPlan& p, int jobs);

// DIR/results.csv: one row per run, the axes and the figures of its summary.json (empty when
// absent). Written atomically.
void write_results(const CampaignPlan& p);

} // namespace haec::cli
