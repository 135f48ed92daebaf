#include "cli_reference.hpp"
#include "install_paths.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <map>

namespace haec::cli {
namespace {

// The page of the manual (docs/<page>.md) that explains each command; subcommands without an
// entry inherit their parent's.
const std::map<std::string, std::pair<std::string, std::string>>& manual_pages()
{
  static const std::map<std::string, std::pair<std::string, std::string>> pages = {
      {"haec", {"index", "its start page"}},
      {"haec run", {"guide/running", "User guide > Running simulations"}},
      {"haec platform", {"guide/platforms", "User guide > Platforms"}},
      {"haec map", {"guide/mappings", "User guide > Mappings"}},
      {"haec cc", {"guide/real-codes", "User guide > Compiling and running real codes"}},
      {"haec cxx", {"guide/real-codes", "User guide > Compiling and running real codes"}},
      {"haec f77", {"guide/real-codes", "User guide > Compiling and running real codes"}},
      {"haec fc", {"guide/real-codes", "User guide > Compiling and running real codes"}},
      {"haec trace", {"guide/traces", "User guide > Traces"}},
      {"haec calibrate", {"guide/calibration", "User guide > Calibration"}},
      {"haec settings", {"reference/settings", "Reference > Settings"}},
      {"haec campaign", {"guide/campaigns", "User guide > Campaigns"}},
  };
  return pages;
}

std::string command_path(const CLI::App* app)
{
  std::string path;
  for (const CLI::App* a = app; a != nullptr; a = a->get_parent()) {
    const std::string name = a->get_parent() == nullptr ? "haec" : a->get_name(); // the root has no name
    path = name + (path.empty() ? "" : " " + path);
  }
  return path;
}

std::pair<std::string, std::string> page_of(const CLI::App* app)
{
  for (const CLI::App* a = app; a != nullptr; a = a->get_parent())
    if (auto it = manual_pages().find(command_path(a)); it != manual_pages().end())
      return it->second;
  return manual_pages().at("haec");
}

// The built HTML manual next to this executable: build/docs/html in a build tree, or
// share/doc/haec-smpi/html in an installation; "" when neither exists.
std::string html_root()
{
  namespace fs = std::filesystem;
  const fs::path bin(self_dir());
  std::error_code ec;
  for (const fs::path& dir : {bin / ".." / "docs" / "html", bin / ".." / "share" / "doc" / "haec-smpi" / "html"})
    if (fs::is_regular_file(dir / "index.html", ec))
      return fs::weakly_canonical(dir, ec).string();
  return "";
}

std::string footer_for(const CLI::App* app, const std::string& html)
{
  const auto& [page, title] = page_of(app);
  std::string text = "Manual: " + title + " (docs/" + page + ".md";
  text += html.empty() ? "; HTML: cmake --build build --target docs)" : "; HTML: " + html + "/" + page + ".html)";
  if (page != "reference/cli")
    text += "\nEvery option: Reference > Command line (docs/reference/cli.md)";
  return text;
}

void set_footers(CLI::App* app, const std::string& html)
{
  app->footer(footer_for(app, html));
  for (CLI::App* sub : app->get_subcommands({}))
    set_footers(sub, html);
}

nlohmann::ordered_json option_json(const CLI::Option* o)
{
  nlohmann::ordered_json j;
  std::vector<std::string> names;
  for (const auto& s : o->get_snames())
    names.push_back("-" + s);
  for (const auto& l : o->get_lnames())
    names.push_back("--" + l);
  j["names"]       = names;
  j["positional"]  = o->get_positional() && !o->nonpositional() ? o->get_name(true) : "";
  j["flag"]        = o->get_expected_min() == 0 && o->get_expected_max() == 0;
  j["type"]        = o->get_type_name();
  j["default"]     = o->get_default_str();
  j["required"]    = o->get_required();
  j["description"] = o->get_description();
  return j;
}

nlohmann::ordered_json command_json(const CLI::App* app)
{
  nlohmann::ordered_json j;
  j["command"]     = command_path(app);
  j["description"] = app->get_description();
  j["manual_page"] = page_of(app).first;
  j["manual_title"] = page_of(app).second;
  j["passes_extra_arguments"] = app->get_allow_extras() || app->get_prefix_command();
  nlohmann::ordered_json options = nlohmann::ordered_json::array();
  for (const CLI::Option* o : app->get_options())
    if (o->get_lnames() != std::vector<std::string>{"help"})
      options.push_back(option_json(o));
  j["options"] = options;
  nlohmann::ordered_json subs = nlohmann::ordered_json::array();
  for (const CLI::App* sub : app->get_subcommands({}))
    subs.push_back(command_json(sub));
  j["subcommands"] = subs;
  return j;
}

} // namespace

void add_manual_footers(CLI::App& app)
{
  set_footers(&app, html_root());
}

void print_help_json(const CLI::App& app)
{
  std::printf("%s\n", command_json(&app).dump(2).c_str());
}

} // namespace haec::cli
