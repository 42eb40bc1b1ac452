#include "testkit/git_repo.h"

#include <cstdlib>

namespace tjr::testkit {

bool HaveGit() {
  static const bool have = std::system("git --version >/dev/null 2>&1") == 0;
  return have;
}

std::string ShellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

GitRepo::GitRepo() : TempDir("git") { Git("init -q -b main"); }

int GitRepo::Git(const std::string& args) const {
  const std::string command =
      "cd " + ShellQuote(root()) +
      " && GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t "
      "GIT_COMMITTER_EMAIL=t@example.com GIT_AUTHOR_DATE='2024-01-01T00:00:00Z' "
      "GIT_COMMITTER_DATE='2024-01-01T00:00:00Z' GIT_CONFIG_NOSYSTEM=1 HOME=" +
      ShellQuote(root()) + " git -c core.symlinks=true -c protocol.file.allow=always " + args + " >/dev/null 2>&1";
  return std::system(command.c_str());
}

int GitRepo::Commit(const std::string& message) const {
  if (Git("add -A") != 0) return -1;
  return Git("commit -q --allow-empty -m " + ShellQuote(message));
}

}  // namespace tjr::testkit
