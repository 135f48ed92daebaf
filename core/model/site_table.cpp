#include "site_table.hpp"

namespace haec::core {

// Looked up once per MPI call: find first, so that a known site costs no allocation.
uint32_t SiteTable::site(const std::string& text)
{
  if (auto it = site_ids_.find(text); it != site_ids_.end())
    return it->second;
  const auto id = static_cast<uint32_t>(sites_.size());
  site_ids_.emplace(text, id);
  sites_.push_back(text);
  return id;
}

const std::string& SiteTable::site_text(uint32_t id) const
{
  static const std::string start = "start";
  return id == kNoSite ? start : sites_.at(id);
}

uint32_t SiteTable::region(uint32_t from, uint32_t to)
{
  const uint64_t key = (static_cast<uint64_t>(from) << 32) | to;
  if (auto it = region_ids_.find(key); it != region_ids_.end()) // once per computation: no allocation
    return it->second;
  const auto id = static_cast<uint32_t>(regions_.size());
  region_ids_.emplace(key, id);
  regions_.push_back({from, to, site_text(from) + ">" + (to == kNoSite ? std::string("*") : site_text(to))});
  return id;
}

} // namespace haec::core
