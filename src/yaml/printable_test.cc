// What kubectl -o yaml refuses to print. The string and key cases were run
// through `kubectl patch --local ... -o yaml` (v1.32.4), which failed with
// the message shown (or printed the value, for the accepted ones); NaN never
// reaches kubectl's printer (no input format has it), so its message is
// encoding/json's.

#include "yaml/printable.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace tjr::yaml {
namespace {

constexpr std::string_view kControl = "yaml: control characters are not allowed";
constexpr std::string_view kBrokenKey = "yaml: did not find expected ',' or '}'";

std::string Repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST(PrintableTest, ValuesWithCharactersGoyamlRejects) {
  EXPECT_EQ(KubectlStringProblem("a\x7F"
                                 "b"),
            kControl);
  EXPECT_EQ(KubectlStringProblem("a\xC2\x86"
                                 "b"),
            kControl);                                        // U+0086
  EXPECT_EQ(KubectlStringProblem("\xEF\xBF\xBE"), kControl);  // U+FFFE
  EXPECT_EQ(KubectlStringProblem("\xEF\xBF\xBF"), kControl);  // U+FFFF
  EXPECT_EQ(KubectlStringProblem("a\xC2\x85"
                                 "b"),
            "");  // NEL is allowed
  EXPECT_EQ(KubectlStringProblem("\t\r\n\x01 \xEF\xBB\xBF \xF0\x9F\x98\x80"), "");
  EXPECT_EQ(KubectlStringProblem("\xFF"), "");  // becomes U+FFFD
}

TEST(PrintableTest, NelBeforeADocumentMarker) {
  EXPECT_EQ(KubectlStringProblem("a\xC2\x85--- b"), "yaml: found unexpected document indicator");
  EXPECT_NE(KubectlStringProblem("a\xC2\x85... b"), "");
  EXPECT_NE(KubectlStringProblem("a\xC2\x85---\xC2\x85"
                                 "b"),
            "");
  EXPECT_EQ(KubectlStringProblem("a\xC2\x85---"), "");     // printed as "a ---"
  EXPECT_EQ(KubectlStringProblem("a\xC2\x85 --- b"), "");  // printed as "a --- b"
}

TEST(PrintableTest, KeysSplitOrTooLongForGoyaml) {
  EXPECT_EQ(KubectlKeyProblem("a\xC2\x85x"), kBrokenKey);
  EXPECT_EQ(KubectlKeyProblem(std::string(1022, 'k')), "");
  EXPECT_EQ(KubectlKeyProblem(std::string(1023, 'k')), kBrokenKey);
  // Characters count once; escapes count as encoding/json writes them.
  EXPECT_EQ(KubectlKeyProblem(Repeat("\xC3\xA9", 1020) + "\n"), "");
  EXPECT_EQ(KubectlKeyProblem(Repeat("\xC3\xA9", 1021) + "\n"), kBrokenKey);
  EXPECT_EQ(KubectlKeyProblem(std::string(170, '<') + "ab"), "");
  EXPECT_EQ(KubectlKeyProblem(std::string(170, '<') + "abc"), kBrokenKey);
  EXPECT_EQ(KubectlKeyProblem(std::string(511, '\b')), "");
  EXPECT_EQ(KubectlKeyProblem(std::string(512, '\b')), kBrokenKey);
  EXPECT_EQ(KubectlKeyProblem(Repeat("\xE2\x80\xA8", 170) + "ab"), "");
  EXPECT_EQ(KubectlKeyProblem(Repeat("\xE2\x80\xA8", 170) + "abc"), kBrokenKey);
  EXPECT_EQ(KubectlKeyProblem(std::string(170, '\x01') + "ab"), "");
  EXPECT_EQ(KubectlKeyProblem(std::string(170, '\x01') + "abc"), kBrokenKey);
  EXPECT_EQ(KubectlKeyProblem("k\x7F"), kControl);
}

TEST(PrintableTest, TreeErrorsNameTheField) {
  doc::Node inner = doc::Node::Mapping();
  inner.Set("ok", doc::Node::String("fine"));
  doc::Node list = doc::Node::Sequence();
  list.push_back(doc::Node::Int(1));
  list.push_back(doc::Node::String("bad\x7F"));
  inner.Set("list", list);
  doc::Node root = doc::Node::Mapping();
  root.Set("spec", inner);
  Status status = CheckKubectlPrintable(root);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().field_path, "spec.list[1]");
  EXPECT_EQ(status.error().message, kControl);

  doc::Node floats = doc::Node::Mapping();
  floats.Set("f", doc::Node::Float(std::nan("")));
  status = CheckKubectlPrintable(floats);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().field_path, "f");
  EXPECT_EQ(status.error().message, "json: unsupported value: NaN");

  doc::Node keys = doc::Node::Mapping();
  keys.Set(std::string(1023, 'k'), doc::Node::Null());
  EXPECT_FALSE(CheckKubectlPrintable(keys).ok());

  inner.Set("list", doc::Node::Sequence());
  root.Set("spec", inner);  // nodes are values: put the fixed copy back
  EXPECT_TRUE(CheckKubectlPrintable(root).ok());
}

}  // namespace
}  // namespace tjr::yaml
