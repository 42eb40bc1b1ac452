#include "admission/container_formats.h"

#include <gtest/gtest.h>

namespace tjr::admission::formats {
namespace {

using Messages = std::vector<std::string>;

TEST(ContainerFormatsTest, PortNamesAsIsValidPortNameSays) {
  EXPECT_TRUE(PortName("http").empty());
  EXPECT_EQ(PortName("HTTP"), (Messages{"must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
                                        "must contain at least one letter (a-z)"}));
  EXPECT_EQ(PortName("a--b"), Messages{"must not contain consecutive hyphens"});
  EXPECT_EQ(PortName("-ab"), Messages{"must not begin or end with a hyphen"});
  EXPECT_EQ(PortName("abcdefghijklmnop"), Messages{"must be no more than 15 characters"});
  EXPECT_EQ(PortName("1234"), Messages{"must contain at least one letter (a-z)"});
}

TEST(ContainerFormatsTest, RelaxedEnvNamesAllowAnyPrintableAsciiButEquals) {
  EXPECT_TRUE(RelaxedEnvVarName("1_FOO").empty());
  EXPECT_TRUE(RelaxedEnvVarName("Logging:Level").empty());
  const Messages bad{"a valid environment variable name must consist only of printable ASCII characters other than '='"};
  EXPECT_EQ(RelaxedEnvVarName("A=B"), bad);
  EXPECT_EQ(RelaxedEnvVarName("caf\xc3\xa9"), bad);
  EXPECT_EQ(RelaxedEnvVarName("a\tb"), bad);
}

TEST(ContainerFormatsTest, StrictEnvNamesKeepTheRegexAndChDirRules) {
  EXPECT_TRUE(EnvVarName("MY_ENV.NAME").empty());
  EXPECT_EQ(EnvVarName(".."),
            (Messages{"must not be '..'"}));
  EXPECT_EQ(EnvVarName("1A").front(),
            "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and "
            "must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for "
            "validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')");
}

TEST(ContainerFormatsTest, QualifiedNamesCheckPrefixAndName) {
  EXPECT_TRUE(QualifiedName("nvidia.com/gpu").empty());
  EXPECT_EQ(QualifiedName("/gpu"), Messages{"prefix part must be non-empty"});
  EXPECT_EQ(QualifiedName("nvidia.com/-gpu"),
            Messages{"name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with "
                     "an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
                     "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"});
}

TEST(ContainerFormatsTest, LabelsWithDotsSaySo) {
  EXPECT_TRUE(Dns1123Label("trainer").empty());
  EXPECT_EQ(Dns1123Label("node.0"), Messages{"must not contain dots"});
  EXPECT_EQ(Dns1123Label("Node").size(), 1u);
  EXPECT_EQ(PortNum(0), Messages{"must be between 1 and 65535, inclusive"});
  EXPECT_EQ(UnixId(-1), Messages{"must be between 0 and 4294967295, inclusive"});
}

}  // namespace
}  // namespace tjr::admission::formats
