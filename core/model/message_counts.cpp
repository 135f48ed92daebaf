#include "message_counts.hpp"

#include <cstdint>

namespace haec::core {

size_t MessageCounts::EnvelopeHash::operator()(const Envelope& e) const
{
  // Multiply-xorshift mixing: neighbours' ranks and small tags spread over the slots.
  uint64_t h = 0;
  for (uint64_t field : {uint64_t(uint32_t(e.src)), uint64_t(uint32_t(e.dst)), uint64_t(uint32_t(e.tag))}) {
    h = (h ^ field) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 29;
  }
  return size_t(h);
}

unsigned MessageCounts::Table::get(const Envelope& e) const
{
  auto it    = counts_.find(e);
  read_      = e;
  read_slot_ = it == counts_.end() ? nullptr : const_cast<unsigned*>(&it->second);
  return read_slot_ == nullptr ? 0 : *read_slot_;
}

void MessageCounts::Table::increment(const Envelope& e)
{
  if (read_slot_ != nullptr && read_ == e) {
    ++*read_slot_;
    return;
  }
  ++counts_[e];
  read_slot_ = nullptr; // an insertion may have moved every slot
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
