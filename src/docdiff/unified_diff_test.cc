#include "docdiff/unified_diff.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace tjr::docdiff {
namespace {

// The expected texts below are what GNU diff 3.8 prints for
// `diff -u --label expected --label actual BEFORE AFTER`.

TEST(UnifiedDiffTest, EqualTextsGiveNothing) {
  EXPECT_EQ(UnifiedDiff("a\nb\n", "a\nb\n", "expected", "actual"), "");
  EXPECT_EQ(UnifiedDiff("", "", "expected", "actual"), "");
}

TEST(UnifiedDiffTest, DistantChangesMakeTwoHunks) {
  EXPECT_EQ(UnifiedDiff("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n",
                        "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n", "expected", "actual"),
            "--- expected\n+++ actual\n"
            "@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n"
            "@@ -11,3 +11,4 @@\n k\n l\n m\n+n\n");
}

TEST(UnifiedDiffTest, ChangesSixLinesApartShareAHunk) {
  EXPECT_EQ(UnifiedDiff("a\nb\nc\nd\ne\nf\ng\nh\ni\n", "a\nb\nc\nX\ne\nf\ng\nh\nY\n", "e", "a"),
            "--- e\n+++ a\n@@ -1,9 +1,9 @@\n a\n b\n c\n-d\n+X\n e\n f\n g\n h\n-i\n+Y\n");
}

TEST(UnifiedDiffTest, MissingFinalNewlineIsMarked) {
  EXPECT_EQ(UnifiedDiff("a\nb", "a\nb\n", "e", "a"),
            "--- e\n+++ a\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
}

TEST(UnifiedDiffTest, InsertionIntoEmptyTextNamesLineZero) {
  EXPECT_EQ(UnifiedDiff("", "x\n", "e", "a"), "--- e\n+++ a\n@@ -0,0 +1 @@\n+x\n");
  EXPECT_EQ(UnifiedDiff("x\n", "", "e", "a"), "--- e\n+++ a\n@@ -1 +0,0 @@\n-x\n");
}

TEST(UnifiedDiffTest, PrefersKeepingTheLongestCommonRun) {
  // A minimal script keeps the run "- a", "- c" and moves "- b".
  EXPECT_EQ(UnifiedDiff("- b\n- a\n- c\n", "- a\n- c\n- b\n", "e", "a"),
            "--- e\n+++ a\n@@ -1,3 +1,3 @@\n-- b\n - a\n - c\n+- b\n");
}

TEST(UnifiedDiffTest, TooManyEditsFallBackToOneBlock) {
  EXPECT_EQ(UnifiedDiff("s\na\nb\nt\n", "s\nb\nc\nt\n", "e", "a", 3, 1),
            "--- e\n+++ a\n@@ -1,4 +1,4 @@\n s\n-a\n-b\n+b\n+c\n t\n");
  EXPECT_EQ(UnifiedDiff("s\na\nb\nt\n", "s\nb\nc\nt\n", "e", "a", 3, 2),
            "--- e\n+++ a\n@@ -1,4 +1,4 @@\n s\n-a\n b\n+c\n t\n");
}

// Applies a diff made by UnifiedDiff to `before`.
std::string ApplyDiff(const std::string& before, const std::string& diff) {
  std::vector<std::string> a;
  std::istringstream in(before);
  for (std::string line; std::getline(in, line);) a.push_back(line + "\n");
  std::vector<std::string> out;
  std::size_t next = 0;  // next unread line of `a`
  std::istringstream d(diff);
  std::string line;
  std::getline(d, line);
  std::getline(d, line);
  while (std::getline(d, line)) {
    if (line.rfind("@@ -", 0) == 0) {
      std::size_t start = std::stoul(line.substr(4));
      std::size_t comma = line.find(',');
      std::size_t space = line.find(' ', 4);
      bool empty = comma != std::string::npos && comma < space && line.substr(comma + 1, 2) == "0 ";
      std::size_t first = empty ? start : start - 1;
      while (next < first) out.push_back(a[next++]);
    } else if (line[0] == ' ') {
      out.push_back(a[next++]);
    } else if (line[0] == '-') {
      ++next;
    } else if (line[0] == '+') {
      out.push_back(line.substr(1) + "\n");
    }
  }
  while (next < a.size()) out.push_back(a[next++]);
  std::string result;
  for (const std::string& l : out) result += l;
  return result;
}

std::size_t LcsLength(const std::vector<char>& a, const std::vector<char>& b) {
  std::vector<std::vector<std::size_t>> t(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      t[i][j] = a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
    }
  }
  return t[a.size()][b.size()];
}

TEST(UnifiedDiffTest, RandomTextsRoundTripWithMinimalEdits) {
  std::mt19937 random(20240611);
  for (int round = 0; round < 400; ++round) {
    std::vector<char> a(random() % 14);
    std::vector<char> b(random() % 14);
    for (char& c : a) c = static_cast<char>('a' + random() % 4);
    for (char& c : b) c = static_cast<char>('a' + random() % 4);
    std::string before;
    std::string after;
    for (char c : a) before += std::string(1, c) + "\n";
    for (char c : b) after += std::string(1, c) + "\n";
    std::string diff = UnifiedDiff(before, after, "e", "a", static_cast<std::size_t>(round % 4));
    EXPECT_EQ(ApplyDiff(before, diff), after) << before << "=>\n" << after << diff;
    std::size_t changed = 0;
    std::istringstream lines(diff);
    std::string line;
    std::getline(lines, line);
    std::getline(lines, line);
    while (std::getline(lines, line)) changed += (line[0] == '+' || line[0] == '-') ? 1 : 0;
    EXPECT_EQ(changed, a.size() + b.size() - 2 * LcsLength(a, b)) << diff;
  }
}

}  // namespace
}  // namespace tjr::docdiff
