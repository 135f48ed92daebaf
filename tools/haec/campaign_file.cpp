#include "campaign_file.hpp"
#include "atomic_file.hpp"
#include "campaign_inputs.hpp"
#include "input_error.hpp"
#include "json_input.hpp"
#include "text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <map>
#include <set>

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace haec::cli {
namespace {

// A name from the campaign file may be unusable as a path (too long, say): that is "not found",
// reported as bad input, never an exception out of the reader (fuzz_campaign_file found one).
bool exists_quietly(const fs::path& p)
{
  std::error_code ec;
  return fs::exists(p, ec);
}

bool regular_file_quietly(const fs::path& p)
{
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

// The haec run options a campaign may set or sweep; files are relative to the campaign file.
const std::set<std::string> value_options = {"platform", "map",      "seed",  "link",    "governor",
                                             "iterations", "balance", "every", "np",      "host-speed",
                                             "workloads",  "traffic", "hostfile", "mapping-file", "simgrid",
                                             "power-model", "counter-coefficients", "snapshot-period"};
const std::set<std::string> file_options  = {"workloads", "traffic", "hostfile", "mapping-file",
                                             "counter-coefficients"};
const std::set<std::string> flag_options  = {"power", "power-series", "messages", "events", "oversubscribe"};

std::string option_list()
{
  std::string s;
  for (const auto& set : {value_options, flag_options})
    for (const auto& k : set)
      s += (s.empty() ? "" : " ") + k;
  return s + " cfg";
}

struct Reader {
  std::string file;
  fs::path dir; // the campaign file's directory

  [[noreturn]] void fail(const std::string& problem, const std::string& fix) const
  {
    throw InputError(file, problem, fix);
  }

  std::string path_value(const std::string& v) const { return v.empty() || v[0] == '/' ? v : (dir / v).string(); }

  // A platform names a file only when such a file exists next to the campaign (else it is a spec).
  std::string platform_value(const std::string& v) const
  {
    const fs::path p = dir / v;
    return v[0] != '/' && (p.extension() == ".json" || p.extension() == ".xml") && exists_quietly(p) ? p.string() : v;
  }

  std::string scalar(const json& v, const std::string& key) const
  {
    if (v.is_string() && !v.get<std::string>().empty())
      return v.get<std::string>();
    if (v.is_number_integer() || v.is_number_unsigned() || v.is_number_float())
      return v.dump();
    fail("'" + key + "' value " + v.dump() + " is not a non-empty string or a number", "give a string or a number");
  }

  // The haec run arguments one option value gives. An object is a bundle of options that vary
  // together (e.g. a platform and its rank count); its axis name is then only a label.
  void add_option(const std::string& key, const json& v, std::vector<std::string>& args) const
  {
    if (v.is_object()) {
      if (v.empty())
        fail("'" + key + "' has an empty bundle {}", "give the options it sets, e.g. {\"platform\": ..., \"np\": 16}");
      for (const auto& [k, x] : v.items()) {
        if (x.is_object())
          fail("'" + key + "' bundle nests an object under '" + k + "'", "give option values, not objects");
        add_option(k, x, args);
      }
      return;
    }
    if (flag_options.count(key)) {
      if (!v.is_boolean())
        fail("'" + key + "' value " + v.dump() + " is not true or false", "give true or false");
      if (v.get<bool>())
        args.push_back("--" + key);
      return;
    }
    if (key.rfind("cfg:", 0) == 0) {
      args.push_back("--cfg=" + key.substr(4) + ":" + scalar(v, key));
      return;
    }
    if (key == "cfg") {
      if (!v.is_array())
        fail("'cfg' is not a list", "give \"cfg\": [\"KEY:VALUE\", ...]");
      for (const auto& kv : v)
        args.push_back("--cfg=" + scalar(kv, key));
      return;
    }
    if (!value_options.count(key))
      fail("unknown option '" + key + "'", "use one of " + option_list() + " or cfg:KEY, or give the axis bundles such as {\"platform\": ..., \"np\": 16}");
    std::string s = scalar(v, key);
    if (file_options.count(key))
      s = path_value(s);
    else if (key == "platform")
      s = platform_value(s);
    args.push_back("--" + key + "=" + s);
  }

  json parse(const std::string& text) const { return parse_json_input(text, file, "fix the syntax near this line"); }
};

// Program or trace: the arguments that end haec run's command line.
std::vector<std::string> workload_args(const Reader& r, const json& j)
{
  if (j.contains("app") && j.contains("trace"))
    r.fail("gives both 'app' and 'trace'", "give one program or one trace");
  if (j.contains("trace")) {
    const std::string t = j["trace"].is_string() ? j["trace"].get<std::string>() : "";
    if (t.empty())
      r.fail("'trace' is not a file name", "give \"trace\": \"path/to/trace.txt\"");
    const std::string path = r.path_value(t);
    if (!regular_file_quietly(path))
      r.fail("trace '" + t + "' not found", "give a path relative to the campaign file");
    return {"--replay=" + path};
  }
  if (!j.contains("app"))
    r.fail("no 'app' and no 'trace'", "give \"app\": [\"program\", \"args\"...] or \"trace\": \"file\"");
  json app = j["app"].is_string() ? json::array({j["app"]}) : j["app"];
  if (!app.is_array() || app.empty() || !app[0].is_string())
    r.fail("'app' is not a program", "give \"app\": [\"program\", \"args\"...]");
  std::vector<std::string> args = {"--", r.path_value(app[0].get<std::string>())};
  if (!regular_file_quietly(args[1]))
    r.fail("program '" + app[0].get<std::string>() + "' not found",
           "build it with `haec cc` and give its path relative to the campaign file");
  for (size_t i = 1; i < app.size(); ++i)
    args.push_back(r.scalar(app[i], "app"));
  return args;
}

std::string slug(const std::string& s)
{
  std::string out;
  for (char c : s)
    out += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ? c : '_';
  return out;
}

// Readable and stable: the axis values, then a hash of everything that defines the run's result
// (campaign_inputs.hpp: its options in any order, the program or trace, the content of each file
// they name, haec's and SimGrid's versions).
// `hash`: run_hash() of the run.
std::string run_id(const CampaignRun& run, const std::string& hash)
{
  std::string name;
  for (const auto& [axis, value] : run.axes)
    name += (name.empty() ? "" : "_") + slug(value);
  return name.substr(0, 60) + "-" + hash;
}

// The hash of everything that defines the run's result: two runs with one hash are one run, however
// their values are spelled (seed 1 and "01", a file under two names).
std::string run_hash(std::vector<std::string> options, const std::vector<std::string>& tail,
                     const std::string& environment, const std::string& workdir)
{
  std::sort(options.begin(), options.end()); // each option is set once (check_set_once): order is no matter
  return text::fnv1a_hex(environment + '\0' + run_inputs_key(options, tail, workdir));
}

// The option an argument sets ("np" for --np=4, "cfg:smpi/host-speed" for --cfg=smpi/host-speed:1Gf).
std::string option_of(const std::string& arg)
{
  std::string name = arg.substr(2, arg.find('=') == std::string::npos ? std::string::npos : arg.find('=') - 2);
  if (name == "cfg")
    name += ":" + arg.substr(6, arg.find(':') == std::string::npos ? std::string::npos : arg.find(':') - 6);
  return name;
}

// An option set by two sources of one run ('run' and an axis, two axes, a bundle and an axis):
// haec run would keep one of them silently.
void check_set_once(const Reader& r, const std::vector<std::pair<std::string, std::vector<std::string>>>& sources)
{
  std::map<std::string, std::string> setter;
  for (const auto& [source, args] : sources)
    for (const auto& a : args)
      if (auto [it, fresh] = setter.emplace(option_of(a), source); !fresh)
        r.fail("option '" + it->first + "' is set by " + it->second + " and by " + source, "set each option in one place");
}

const size_t kMaxRuns = 100000; // a campaign of more runs is a mistake, not a study

std::vector<std::pair<std::string, json>> read_axes(const Reader& r, const json& j)
{
  if (!j.contains("axes") || !j["axes"].is_object() || j["axes"].empty())
    r.fail("empty sweep: no axes", "give \"axes\": {\"platform\": [...], \"map\": [...]}");
  std::vector<std::pair<std::string, json>> axes;
  for (const auto& [name, values] : j["axes"].items()) {
    if (!values.is_array() || values.empty())
      r.fail("empty sweep: axis '" + name + "' has no values", "give it a list of at least one value");
    std::map<std::vector<std::string>, std::string> seen; // haec run arguments -> the value giving them
    for (const auto& v : values) {
      std::vector<std::string> args;
      r.add_option(name, v, args); // checks the name and the value's type
      // Values are compared by what they make haec run do: 2 and "2" are one run, and so are two
      // bundles listing the same options in another order.
      std::sort(args.begin(), args.end());
      if (auto [it, fresh] = seen.emplace(args, v.dump()); !fresh)
        r.fail("axis '" + name + "' gives the same run twice (" + it->second + (it->second == v.dump() ? "" : " and " + v.dump()) + ")",
               "list each value once");
    }
    axes.emplace_back(name, values);
  }
  // Before expanding: a product of a few long axes is astronomically many runs (found by fuzzing).
  size_t runs = 1;
  for (const auto& a : axes)
    if ((runs *= a.second.size()) > kMaxRuns)
      r.fail("the axes make more than " + std::to_string(kMaxRuns) + " runs", "split the campaign or shorten its axes");
  return axes;
}

// An axis value as results.csv shows it; a bundle as key=value pairs.
std::string axis_text(const json& v)
{
  if (!v.is_object())
    return v.is_string() ? v.get<std::string>() : v.dump();
  std::string s;
  for (const auto& [k, x] : v.items())
    s += (s.empty() ? "" : " ") + k + "=" + axis_text(x);
  return s;
}

} // namespace

Campaign read_campaign(const std::string& file, const std::string& environment)
{
  Reader r{file, fs::absolute(file).parent_path()};
  const json j = r.parse(read_file(file, "campaign file"));
  if (!j.is_object())
    r.fail("is not a JSON object", "see docs/guide/campaigns.md");
  for (const auto& [key, v] : j.items())
    if (key != "app" && key != "trace" && key != "run" && key != "axes" && key != "name" && key != "description")
      r.fail("unknown key '" + key + "'", "use app or trace, run, axes, name, description");
  std::vector<std::string> fixed;
  if (j.contains("run")) {
    if (!j["run"].is_object())
      r.fail("'run' is not an object", "give \"run\": {\"link\": \"pnc\", ...}");
    for (const auto& [key, v] : j["run"].items())
      r.add_option(key, v, fixed);
  }
  const std::vector<std::string> tail = workload_args(r, j);
  const auto axes = read_axes(r, j);
  Campaign c;
  c.file    = file;
  c.workdir = j.contains("trace") ? fs::path(tail[0].substr(tail[0].find('=') + 1)).parent_path().string()
                                  : r.dir.string();
  for (const auto& a : axes)
    c.axis_names.push_back(a.first);
  std::map<std::string, std::string> hashes; // run_hash -> the run's label, for runs given twice
  std::vector<size_t> index(axes.size(), 0);
  for (bool more = true; more;) {
    CampaignRun run;
    std::vector<std::pair<std::string, std::vector<std::string>>> sources = {{"'run'", fixed}};
    std::string label;
    for (size_t a = 0; a < axes.size(); ++a) {
      const json& v = axes[a].second[index[a]];
      run.axes.emplace_back(axes[a].first, axis_text(v));
      label += (label.empty() ? "" : " ") + axes[a].first + "=" + run.axes.back().second;
      sources.push_back({"axis '" + axes[a].first + "'", {}});
      r.add_option(axes[a].first, v, sources.back().second);
    }
    check_set_once(r, sources);
    for (const auto& [source, args] : sources)
      run.args.insert(run.args.end(), args.begin(), args.end());
    const std::string hash = run_hash(run.args, tail, environment, c.workdir);
    run.id                 = run_id(run, hash);
    run.args.insert(run.args.end(), tail.begin(), tail.end());
    if (auto [it, fresh] = hashes.emplace(hash, label); !fresh)
      r.fail("runs '" + it->second + "' and '" + label + "' are the same run", "give each run once");
    c.runs.push_back(std::move(run));
    more = false; // odometer over the axes, last axis fastest
    for (size_t a = axes.size(); a-- > 0 && !more;) {
      more = ++index[a] < axes[a].second.size();
      if (!more)
        index[a] = 0;
    }
  }
  return c;
}

} // namespace haec::cli
