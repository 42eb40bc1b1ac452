// The man pages and completions are made from what --help prints.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "cli/command.h"
#include "cli/command_docs.h"
#include "cli/completion.h"
#include "cli/man_page.h"
#include "cli/test_support.h"

namespace tjr::cli {
namespace {

using testing::Invoke;

const CommandDoc& Find(const std::vector<CommandDoc>& docs, const std::string& name) {
  for (const CommandDoc& doc : docs) {
    if (doc.name == name) return doc;
  }
  ADD_FAILURE() << "no command " << name;
  return docs.front();
}

TEST(CommandDocsTest, EveryCommandWithTheUsageAndOptionsHelpPrints) {
  const std::vector<CommandDoc> docs = CollectCommandDocs();
  ASSERT_EQ(docs.size(), Commands().size());
  for (const Command& command : Commands()) {
    const CommandDoc& doc = Find(docs, command.name);
    const std::string help = Invoke(command.run, {"--help"}).out;
    EXPECT_TRUE(help.starts_with(doc.usage)) << command.name;
    EXPECT_EQ(doc.summary, command.summary);
    // Every long option of the printed table, and no other.
    std::set<std::string> printed, documented;
    const std::string table = help.substr(doc.usage.size());
    std::regex flag("(?:^|\\n)  (?:-\\w \\[ )?--([\\w-]+)");
    for (std::sregex_iterator it(table.begin(), table.end(), flag), end; it != end; ++it) {
      printed.insert((*it)[1]);
    }
    for (const OptionDoc& option : doc.options) documented.insert(option.long_name);
    EXPECT_EQ(printed, documented) << command.name;
    EXPECT_TRUE(documented.count("help")) << command.name;
  }
  // After collecting, --help prints again.
  EXPECT_NE(Invoke(Commands().front().run, {"--help"}).out.find("usage:"), std::string::npos);
}

TEST(CommandDocsTest, ValueNamesAndChoicesComeFromTheUsageLine) {
  const std::vector<CommandDoc> docs = CollectCommandDocs();
  auto option = [&](const std::string& command, const std::string& name) {
    for (const OptionDoc& o : Find(docs, command).options) {
      if (o.long_name == name) return o;
    }
    ADD_FAILURE() << command << " --" << name;
    return OptionDoc{};
  };
  EXPECT_EQ(option("render", "out").value_name, "DIR");
  EXPECT_TRUE(option("render", "out").takes_value);
  EXPECT_FALSE(option("render", "check").takes_value);
  EXPECT_EQ(option("render", "output").short_name, "o");
  EXPECT_EQ(option("render", "output").choices, (std::vector<std::string>{"-", "yaml", "json"}));
  EXPECT_EQ(option("diff", "format").choices, (std::vector<std::string>{"text", "markdown", "json"}));
  EXPECT_EQ(option("diff", "unified").short_name, "U");
  EXPECT_TRUE(TakesFlyteTargets(option("render", "target")));
  EXPECT_FALSE(TakesFlyteTargets(option("diff", "target")));
}

TEST(ManPageTest, RoffEscapesWhatRoffWouldRead) {
  EXPECT_EQ(RoffEscape("a-b \\n"), "a\\-b \\en");
  EXPECT_EQ(RoffEscape(".TH x\n'quote\nmid.dle"), "\\&.TH x\n\\&'quote\nmid.dle");
}

TEST(ManPageTest, CommandPageHasSynopsisDescriptionAndEveryOption) {
  const std::vector<CommandDoc> docs = CollectCommandDocs();
  const std::string page = CommandManPage(Find(docs, "diff"), "9.9.9");
  EXPECT_TRUE(page.starts_with(".TH TJRENDER\\-DIFF 1 \"\" \"tjrender 9.9.9\" \"tjrender manual\"\n")) << page;
  EXPECT_NE(page.find(".SH SYNOPSIS\n.nf\ntjrender diff BASE [HEAD]"), std::string::npos) << page;
  // Continuation lines of the usage move left with its first line.
  EXPECT_NE(page.find("\n              [\\-\\-path P]"), std::string::npos) << page;
  EXPECT_NE(page.find(".SH DESCRIPTION\nRenders the TrainJobs of two revisions"), std::string::npos);
  EXPECT_NE(page.find(".TP\n\\fB\\-U\\fR, \\fB\\-\\-unified\\fR \\fIN\\fR\nlines of context"), std::string::npos)
      << page;
  EXPECT_NE(page.find(".TP\n\\fB\\-\\-all\\fR\n"), std::string::npos) << page;
}

TEST(CompletionTest, OptionsValuesAndCommandsOfEachShell) {
  const std::vector<CommandDoc> docs = CollectCommandDocs();
  const std::string bash = BashCompletion(docs);
  EXPECT_NE(bash.find("compgen -W 'render check diff explain fmt migrate merge conformance argocd-generate "
                      "post-render krm help --help --version'"),
            std::string::npos)
      << bash;
  EXPECT_NE(bash.find("        --format) values='text markdown json' ;;"), std::string::npos) << bash;
  EXPECT_NE(bash.find("--target) values='trainer-v2.1 trainer-v2.2 trainer-v2.3 trainer-pr3199-preview "
                      "flyte-v1.16 flyte-v2' ;;"),
            std::string::npos)
      << bash;
  EXPECT_NE(bash.find("complete -o filenames -F _tjrender tjrender\n"), std::string::npos);
  const std::string zsh = ZshCompletion(docs);
  EXPECT_TRUE(zsh.starts_with("#compdef tjrender\n"));
  EXPECT_NE(zsh.find("'(-U --unified)--unified=[lines of context]:N:_files'"), std::string::npos) << zsh;
  EXPECT_NE(zsh.find("'--color=[auto]:auto|always|never:(auto always never)'"), std::string::npos) << zsh;
  const std::string fish = FishCompletion(docs);
  EXPECT_NE(fish.find("complete -c tjrender -n '__fish_seen_subcommand_from diff' -l unified -s U -r -F "
                      "-d 'lines of context'\n"),
            std::string::npos)
      << fish;
  EXPECT_NE(fish.find("complete -c tjrender -n '__fish_use_subcommand' -f -a krm -d "), std::string::npos);
}

}  // namespace
}  // namespace tjr::cli
