// Call sites and regions as the suite names them (core/model/call_sites.hpp).
#include "site_table.hpp"

#include <gtest/gtest.h>

using namespace haec::core;

TEST(CallSites, SmpiRankCopiesAreNamedAfterTheProgram)
{
  EXPECT_EQ(object_name("/tmp/lu_like_4242_7.so", 4242), "lu_like");
  EXPECT_EQ(object_name("/tmp/my_app_v2_4242_15.so", 4242), "my_app_v2");
  EXPECT_EQ(object_name("/tmp/lu_like_4242_7.so", 99), "lu_like_4242_7.so"); // another process: not a copy
  EXPECT_EQ(object_name("/usr/lib/libfoo.so", 4242), "libfoo.so");
  EXPECT_EQ(object_name("/tmp/app_4242_x.so", 4242), "app_4242_x.so");
  EXPECT_EQ(object_name("lu_like", 1), "lu_like");
}

TEST(CallSites, RegionsAreInternedOnceAndNamedByBothEnds)
{
  SiteTable t;
  uint32_t send = t.site(call_site_text("MPI_Send", "lu_like", 0x1a2b));
  uint32_t recv = t.site(call_site_text("MPI_Recv", "lu_like", 0x2a67));
  EXPECT_EQ(t.site("MPI_Send@lu_like+0x1a2b"), send);
  EXPECT_EQ(t.site_text(kNoSite), "start");
  uint32_t r = t.region(send, recv);
  EXPECT_EQ(t.region(send, recv), r);
  EXPECT_NE(t.region(recv, send), r);
  EXPECT_EQ(t.region_text(r), "MPI_Send@lu_like+0x1a2b>MPI_Recv@lu_like+0x2a67");
  EXPECT_EQ(t.region_text(t.region(recv, kNoSite)), "MPI_Recv@lu_like+0x2a67>*");
  EXPECT_EQ(t.region_text(t.region(kNoSite, send)), "start>MPI_Send@lu_like+0x1a2b");
  EXPECT_EQ(t.region_count(), 4u);
}
