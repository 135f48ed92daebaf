// The fields our collective actions write after the communicator (record_collectives.cpp), shared
// by the blocking haec_<op> C FIELDS and the non-blocking haec_i<op> ID C FIELDS (record_nbc.cpp):
// counts as "COUNT TYPE" (ti_coll_count_type: a derived type as 1000 + its size), "-1 TYPE" for a
// buffer given as MPI_IN_PLACE, roots and per-rank vectors in the communicator's ranks, and a
// reduction's operation class (ti_op_class). Formats: libs/trace/README.md.
#pragma once
#include <mpi.h>

#include <string>

namespace haec::pmpi::fields {

std::string rooted(int count, MPI_Datatype type, int root);                          // bcast: COUNT ROOT TYPE
std::string reduce(int count, MPI_Datatype type, int root, MPI_Op op);               // COUNT ROOT TYPE OP
std::string reduction(int count, MPI_Datatype type, MPI_Op op);                      // allreduce, scan, ...: COUNT TYPE OP
std::string reduce_scatter(const int* rcounts, MPI_Datatype type, MPI_Op op, MPI_Comm comm); // OP TYPE COUNTS...
std::string gather(const void* sbuf, int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype, int root);
std::string scatter(int scount, MPI_Datatype stype, const void* rbuf, int rcount, MPI_Datatype rtype, int root);
std::string exchange(const void* sbuf, int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype); // all*
std::string gatherv(const void* sbuf, int scount, MPI_Datatype stype, const int* rcounts, MPI_Datatype rtype, int root,
                    MPI_Comm comm);
std::string scatterv(const int* scounts, MPI_Datatype stype, const void* rbuf, int rcount, MPI_Datatype rtype, int root,
                     MPI_Comm comm);
std::string allgatherv(const void* sbuf, int scount, MPI_Datatype stype, const int* rcounts, MPI_Datatype rtype,
                       MPI_Comm comm);
std::string alltoallv(const void* sbuf, const int* scounts, MPI_Datatype stype, const int* rcounts, MPI_Datatype rtype,
                      MPI_Comm comm);
std::string alltoallw(const void* sbuf, const int* scounts, const MPI_Datatype* stypes, const int* rcounts,
                      const MPI_Datatype* rtypes, MPI_Comm comm);

} // namespace haec::pmpi::fields
