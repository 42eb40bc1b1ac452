// tjrender-docgen OUTPUT...: writes the man pages and shell completions
// `meson install` installs, from the same usage texts and option tables as
// --help (cli/command_docs.h). Each OUTPUT's file name says what it is:
// tjrender.1, tjrender-COMMAND.1, tjrender (bash, as bash-completion
// names it), _tjrender (zsh),
// tjrender.fish. Fails when a command has no page among the OUTPUTs or an
// OUTPUT names none, so meson.build's list cannot fall behind the commands.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "cli/command_docs.h"
#include "cli/completion.h"
#include "cli/man_page.h"
#include "cli/version.h"

namespace {

bool Write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) std::fprintf(stderr, "tjrender-docgen: cannot write %s\n", path.c_str());
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tjr::cli;
  const std::vector<CommandDoc> commands = CollectCommandDocs();
  std::set<std::string> pages_wanted;
  for (const CommandDoc& command : commands) pages_wanted.insert("tjrender-" + command.name + ".1");
  bool ok = true;
  for (int i = 1; i < argc; ++i) {
    const std::string path = argv[i];
    const std::string name = std::filesystem::path(path).filename().string();
    std::string text;
    if (name == "tjrender.1") {
      text = OverviewManPage(commands, Version(), VersionText());
    } else if (name == "tjrender") {
      text = BashCompletion(commands);
    } else if (name == "_tjrender") {
      text = ZshCompletion(commands);
    } else if (name == "tjrender.fish") {
      text = FishCompletion(commands);
    } else {
      for (const CommandDoc& command : commands) {
        if (name == "tjrender-" + command.name + ".1") text = CommandManPage(command, Version());
      }
      if (text.empty()) {
        std::fprintf(stderr, "tjrender-docgen: %s names no command\n", name.c_str());
        ok = false;
        continue;
      }
      pages_wanted.erase(name);
    }
    ok = Write(path, text) && ok;
  }
  for (const std::string& missing : pages_wanted) {
    std::fprintf(stderr, "tjrender-docgen: no output for %s (add it to meson.build's man pages)\n",
                 missing.c_str());
    ok = false;
  }
  return ok ? 0 : 1;
}
