#pragma once

#include <string>

#include "testkit/temp_dir.h"

// Test-only: a throw-away Git repository, built with the `git` command
// (tests skip when it is missing).
namespace tjr::testkit {

/// True when a `git` command can be run.
bool HaveGit();

/// Skips the running test when there is no `git` command.
#define TJR_REQUIRE_GIT() \
  if (!::tjr::testkit::HaveGit()) GTEST_SKIP() << "git is not installed"

/// `text` quoted for sh.
std::string ShellQuote(const std::string& text);

class GitRepo : public TempDir {
 public:
  /// `git init` on branch main.
  GitRepo();

  /// Runs `git ARGS` in the folder with a fixed identity and dates, so
  /// commits are reproducible; returns its exit status.
  int Git(const std::string& args) const;
  /// Stages everything and commits.
  int Commit(const std::string& message = "change") const;
};

}  // namespace tjr::testkit
