#include "typed/go_text.h"

#include <gtest/gtest.h>

namespace tjr::typed {
namespace {

TEST(GoTextTest, CoerceUtf8ReplacesEachBadByte) {
  EXPECT_EQ(CoerceUtf8("plain"), "plain");
  EXPECT_EQ(CoerceUtf8("a\xff" "b"), "a\xef\xbf\xbd" "b");
  // Overlong NUL and a UTF-16 surrogate are invalid byte by byte in Go.
  EXPECT_EQ(CoerceUtf8("\xc0\x80"), "\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(CoerceUtf8("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(CoerceUtf8("\xe2\x82"), "\xef\xbf\xbd\xef\xbf\xbd");  // truncated
  EXPECT_EQ(CoerceUtf8("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");
}

// encoding/json's HTML-safe string encoder escapes these and nothing else.
TEST(GoTextTest, JsonEscapes) {
  EXPECT_FALSE(JsonStringHasEscapes("1.5Gi"));
  EXPECT_FALSE(JsonStringHasEscapes("caf\xc3\xa9 \x7f"));
  for (std::string_view text : {"\"", "\\", "\t", "\x01", "<", ">", "&", "\xe2\x80\xa8",
                                "\xe2\x80\xa9", "\xff"}) {
    EXPECT_TRUE(JsonStringHasEscapes(text)) << text;
  }
}

TEST(GoTextTest, TrimUnicodeSpace) {
  EXPECT_EQ(TrimUnicodeSpace("  1 "), "1");
  EXPECT_EQ(TrimUnicodeSpace("\xc2\xa0" "1" "\xe3\x80\x80"), "1");  // NBSP, ideographic space
  EXPECT_EQ(TrimUnicodeSpace("\xc2\x85" "1"), "1");                   // NEL
  EXPECT_EQ(TrimUnicodeSpace("1\xe2\x80\x8b"), "1\xe2\x80\x8b");      // zero width space is not space
  EXPECT_EQ(TrimUnicodeSpace("1\xff"), "1\xff");
  EXPECT_EQ(TrimUnicodeSpace(" \t "), "");
}

TEST(GoTextTest, JsonNumberText) {
  EXPECT_EQ(*JsonNumberText(doc::Node::Int(-42)), "-42");
  EXPECT_EQ(*JsonNumberText(doc::Node::Float(1.0)), "1");
  EXPECT_EQ(*JsonNumberText(doc::Node::Float(1e21)), "1e+21");
  EXPECT_EQ(*JsonNumberText(doc::Node::Float(1e-7)), "1e-7");
}

TEST(GoTextTest, FoldName) {
  EXPECT_EQ(FoldName("containerPort"), FoldName("CONTAINERPORT"));
  EXPECT_NE(FoldName("name"), FoldName("names"));
  EXPECT_EQ(FoldName("\xe2\x84\xaaind"), FoldName("kind"));  // KELVIN SIGN
  EXPECT_EQ(FoldName("\xc5\xbfpec"), FoldName("spec"));      // LONG S
  EXPECT_NE(FoldName("n\xc3\xa4me"), FoldName("name"));
}

TEST(GoTextTest, GoTypeStrings) {
  EXPECT_EQ(GoTypeString("k8s.io/api/core/v1.Container"), "v1.Container");
  EXPECT_EQ(GoTypeString("[]k8s.io/api/core/v1.EnvVar"), "[]v1.EnvVar");
  EXPECT_EQ(GoTypeString("map[k8s.io/api/core/v1.ResourceName]k8s.io/apimachinery/pkg/api/"
                         "resource.Quantity"),
            "map[v1.ResourceName]resource.Quantity");
  EXPECT_EQ(GoTypeString("sigs.k8s.io/jobset/api/jobset/v1alpha2.ReplicatedJob"),
            "v1alpha2.ReplicatedJob");
  EXPECT_EQ(GoTypeString("int32"), "int32");
  EXPECT_EQ(GoTypeString("map[string]string"), "map[string]string");
  EXPECT_EQ(GoTypeName("k8s.io/api/core/v1.ContainerPort"), "ContainerPort");
  EXPECT_EQ(GoTypeName("k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta"), "ObjectMeta");
}

}  // namespace
}  // namespace tjr::typed
