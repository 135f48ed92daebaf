// How many messages each (communicator, source, destination, tag) has sent and received so far.
// SMPI 3.32 numbers every message this way so that two messages with the same envelope are matched
// in the order they were sent (smpi_request.cpp: message_id_). SMPI keeps the counts in two maps per
// communicator keyed by the text "tag_src_dst", built and hashed four times per message; this table
// keeps the same counts under integer keys (core/smpi_message_counts.cpp puts it in SMPI's place).
// Pure C++: no SimGrid include.
#pragma once
#include <cstddef>
#include <absl/container/flat_hash_map.h>

#include <unordered_map>

namespace haec::core {

class MessageCounts {
public:
  // SMPI's Comm::get_*_messages_count: 0 for an envelope never counted (nothing is inserted).
  unsigned sent(const void* comm, int src, int dst, int tag) const;
  unsigned received(const void* comm, int src, int dst, int tag) const;
  void count_sent(const void* comm, int src, int dst, int tag) { counts(comm).sent.increment({src, dst, tag}); }
  void count_received(const void* comm, int src, int dst, int tag) { counts(comm).received.increment({src, dst, tag}); }
  // A new communicator at `comm`'s address starts from zero, as SMPI's new Comm object does.
  void forget(const void* comm);
  size_t envelopes() const;

private:
  struct Envelope {
    int src, dst, tag;
    bool operator==(const Envelope& o) const { return src == o.src && dst == o.dst && tag == o.tag; }
  };
  struct EnvelopeHash {
    size_t operator()(const Envelope& e) const;
  };
  // A flat (open-addressing) table: one probe group, usually one cache line, per lookup; the
  // node-based std::unordered_map divided by a prime and chased a pointer, twice per message.
  // SMPI reads an envelope's count and increments it right after (smpi_request.cpp), so the slot
  // found by get() is kept for that increment: one probe per message instead of two.
  class Table {
  public:
    unsigned get(const Envelope& e) const;
    void increment(const Envelope& e);
    size_t size() const { return counts_.size(); }

  private:
    absl::flat_hash_map<Envelope, unsigned, EnvelopeHash> counts_;
    mutable Envelope read_{};             // the envelope get() looked up last
    mutable unsigned* read_slot_ = nullptr; // its count, null when absent (valid until an insertion)
  };
  struct Counts {
    Table sent, received;
  };
  const Counts* find(const void* comm) const;
  Counts& counts(const void* comm);
  std::unordered_map<const void*, Counts> by_comm_;
  // Most messages go through one communicator (MPI_COMM_WORLD, one object for every rank).
  mutable const void* last_comm_ = nullptr;
  mutable Counts* last_counts_ = nullptr;
};

} // namespace haec::core
