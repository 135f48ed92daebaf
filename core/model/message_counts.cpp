#include "message_counts.hpp"

#include <cstdint>

namespace haec::core {

size_t MessageCounts::Table::hash(const Envelope& e)
{
  // Multiply-xorshift mixing: neighbours' ranks and small tags spread over the slots (the shifts
  // fold the product's high bits into the low ones the mask keeps).
  uint64_t h = 0;
  for (uint64_t field : {uint64_t(uint32_t(e.src)), uint64_t(uint32_t(e.dst)), uint64_t(uint32_t(e.tag))}) {
    h = (h ^ field) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 29;
  }
  return size_t(h);
}

size_t MessageCounts::Table::find_slot(const Envelope& e) const
{
  const size_t mask = slots_.size() - 1;
  size_t i          = hash(e) & mask;
  while (slots_[i].count != 0 && !(slots_[i].envelope == e))
    i = (i + 1) & mask;
  return i;
}

unsigned MessageCounts::Table::get(const Envelope& e) const
{
  return slots_.empty() ? 0 : slots_[find_slot(e)].count;
}

void MessageCounts::Table::increment(const Envelope& e)
{
  if (2 * (used_ + 1) > slots_.size()) // at most half full: probes stay short
    grow();
  Slot& s = slots_[find_slot(e)];
  if (s.count == 0) {
    s.envelope = e;
    ++used_;
  }
  ++s.count;
}

void MessageCounts::Table::grow()
{
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.empty() ? 64 : 2 * old.size(), Slot{});
  for (const Slot& s : old)
    if (s.count != 0)
      slots_[find_slot(s.envelope)] = s;
}

unsigned MessageCounts::sent(const void* comm, int src, int dst, int tag) const
{
  const Counts* c = find(comm);
  return c == nullptr ? 0 : c->sent.get({src, dst, tag});
}

unsigned MessageCounts::received(const void* comm, int src, int dst, int tag) const
{
  const Counts* c = find(comm);
  return c == nullptr ? 0 : c->received.get({src, dst, tag});
}

const MessageCounts::Counts* MessageCounts::find(const void* comm) const
{
  if (comm == last_comm_)
    return last_counts_;
  auto it = by_comm_.find(comm);
  if (it == by_comm_.end())
    return nullptr;
  last_comm_ = comm;
  last_counts_ = const_cast<Counts*>(&it->second); // node-based map: the address stays valid until erased
  return last_counts_;
}

MessageCounts::Counts& MessageCounts::counts(const void* comm)
{
  if (comm != last_comm_) {
    last_comm_ = comm;
    last_counts_ = &by_comm_[comm];
  }
  return *last_counts_;
}

void MessageCounts::forget(const void* comm)
{
  by_comm_.erase(comm);
  if (comm == last_comm_) {
    last_comm_ = nullptr;
    last_counts_ = nullptr;
  }
}

size_t MessageCounts::envelopes() const
{
  size_t n = 0;
  for (const auto& [comm, c] : by_comm_)
    n += c.sent.size() + c.received.size();
  return n;
}

} // namespace haec::core
