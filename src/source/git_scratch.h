#pragma once
// Test-only: a throw-away Git repository in a scratch folder, built with the
// `git` command (tests skip when it is missing).

#include <cstdlib>
#include <string>

#include "source/scratch_dir.h"

namespace tjr::source {

/// True when a `git` command can be run.
inline bool HaveGit() {
  static const bool have = std::system("git --version >/dev/null 2>&1") == 0;
  return have;
}

/// `text` quoted for sh.
inline std::string ShellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

class GitScratch : public ScratchDir {
 public:
  /// `git init` on branch main.
  GitScratch() { Git("init -q -b main"); }

  /// Runs `git ARGS` in the folder with a fixed identity and dates, so
  /// commits are reproducible; returns its exit status.
  int Git(const std::string& args) const {
    std::string command =
        "cd " + ShellQuote(root()) +
        " && GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t "
        "GIT_COMMITTER_EMAIL=t@example.com GIT_AUTHOR_DATE='2024-01-01T00:00:00Z' "
        "GIT_COMMITTER_DATE='2024-01-01T00:00:00Z' GIT_CONFIG_NOSYSTEM=1 HOME=" +
        ShellQuote(root()) + " git -c core.symlinks=true -c protocol.file.allow=always " + args +
        " >/dev/null 2>&1";
    return std::system(command.c_str());
  }

  /// Stages everything and commits.
  int Commit(const std::string& message = "change") const {
    if (Git("add -A") != 0) return -1;
    return Git("commit -q --allow-empty -m " + ShellQuote(message));
  }
};

}  // namespace tjr::source
