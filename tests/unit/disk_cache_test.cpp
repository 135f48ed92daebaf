// tools/haec/disk_cache.hpp: what haec remembers between runs (checked traces, XML platform probes).
#include "disk_cache.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using haec::cli::DiskCache;
using haec::cli::file_identity;

namespace {

class DiskCacheTest : public ::testing::Test {
protected:
  void SetUp() override
  {
    root_ = fs::temp_directory_path() / ("haec-disk-cache-test-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    ::setenv("XDG_CACHE_HOME", root_.c_str(), 1);
    ::unsetenv("HAEC_CACHE");
    ::unsetenv("HAEC_TEST_KIND_CACHE");
  }
  void TearDown() override
  {
    fs::remove_all(root_);
    ::unsetenv("XDG_CACHE_HOME");
    ::unsetenv("HAEC_CACHE");
    ::unsetenv("HAEC_TEST_KIND_CACHE");
  }
  fs::path only_entry() const
  {
    fs::path found;
    for (auto const& e : fs::directory_iterator(root_ / "haec" / "kind"))
      found = e.path();
    return found;
  }
  fs::path root_;
};

TEST_F(DiskCacheTest, RemembersAValueUnderItsKey)
{
  const DiskCache cache("kind");
  EXPECT_FALSE(cache.find("key 1\n"));
  cache.store("key 1\n", "value\nwith lines\n");
  ASSERT_TRUE(cache.find("key 1\n"));
  EXPECT_EQ(*cache.find("key 1\n"), "value\nwith lines\n");
  EXPECT_FALSE(cache.find("key 2\n"));
  cache.store("empty\n", "");
  ASSERT_TRUE(cache.find("empty\n"));
  EXPECT_EQ(*cache.find("empty\n"), "");
}

TEST_F(DiskCacheTest, ADamagedOrForeignEntryIsAMiss)
{
  const DiskCache cache("kind");
  cache.store("key\n", "a long enough value\n");
  const fs::path entry = only_entry();
  fs::resize_file(entry, fs::file_size(entry) - 3); // its end mark cut
  EXPECT_FALSE(cache.find("key\n"));
  std::ofstream(entry, std::ios::binary) << "other key\nvalue\nhaec cache entry end\n"; // a hash collision
  EXPECT_FALSE(cache.find("key\n"));
}

TEST_F(DiskCacheTest, AnEmptyKeyIsNeverStored)
{
  const DiskCache cache("kind");
  cache.store("", "value");
  EXPECT_FALSE(fs::exists(root_ / "haec" / "kind"));
  EXPECT_FALSE(cache.find(""));
}

TEST_F(DiskCacheTest, OffSwitchesKeepNothing)
{
  ::setenv("HAEC_CACHE", "off", 1);
  DiskCache("kind").store("key\n", "value");
  EXPECT_FALSE(fs::exists(root_ / "haec" / "kind"));
  ::unsetenv("HAEC_CACHE");
  ::setenv("HAEC_TEST_KIND_CACHE", "off", 1);
  DiskCache("kind", "HAEC_TEST_KIND_CACHE").store("key\n", "value");
  EXPECT_FALSE(fs::exists(root_ / "haec" / "kind"));
  DiskCache("kind").store("key\n", "value"); // the kind's own switch leaves other users on
  EXPECT_TRUE(DiskCache("kind").find("key\n"));
}

TEST_F(DiskCacheTest, AnUnwritableCacheOnlyCostsTheWork)
{
  fs::create_directories(root_);
  std::ofstream(root_ / "haec") << "a file where the directory should be";
  const DiskCache cache("kind");
  cache.store("key\n", "value"); // no throw
  EXPECT_FALSE(cache.find("key\n"));
}

TEST_F(DiskCacheTest, FileIdentityChangesWithTheFile)
{
  fs::create_directories(root_);
  const fs::path f = root_ / "file";
  std::ofstream(f) << "one";
  const std::string before = file_identity(f.string());
  EXPECT_NE(before.find(fs::absolute(f).string() + " 3 "), std::string::npos);
  std::ofstream(f) << "three";
  EXPECT_NE(file_identity(f.string()), before);
  EXPECT_EQ(file_identity((root_ / "missing").string()), "");
}

} // namespace
