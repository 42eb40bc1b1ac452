#include "typed/go_time.h"

#include <gtest/gtest.h>

namespace tjr::typed {
namespace {

// Expectations from kubectl v1.32.4 (go1.23.8): each input was a Pod's
// metadata.creationTimestamp, decoded by metav1.Time.UnmarshalJSON
// (time.Parse with time.RFC3339) and printed by its MarshalJSON ("null" for
// the zero time) via `kubectl set resources --local -o json`.
struct TimeCase {
  const char* input;
  const char* output;  // MarshalJSON's string, or "null"
  const char* error;   // time.Parse's error text
};

const TimeCase kCases[] = {
    {"2024-01-02T03:04:05Z", "2024-01-02T03:04:05Z", nullptr},
    {"2024-01-02T03:04:05+02:00", "2024-01-02T01:04:05Z", nullptr},
    {"2024-01-02T03:04:05-07:30", "2024-01-02T10:34:05Z", nullptr},
    {"2024-01-02T03:04:05.123456789Z", "2024-01-02T03:04:05Z", nullptr},
    {"2024-01-02T03:04:05,5Z", "2024-01-02T03:04:05Z", nullptr},
    {"2024-01-02T3:04:05Z", "2024-01-02T03:04:05Z", nullptr},
    {"2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z", nullptr},
    {"2023-02-29T00:00:00Z", nullptr, "parsing time \"2023-02-29T00:00:00Z\": day out of range"},
    {"2024-13-01T00:00:00Z", nullptr, "parsing time \"2024-13-01T00:00:00Z\": month out of range"},
    {"2024-00-01T00:00:00Z", nullptr, "parsing time \"2024-00-01T00:00:00Z\": month out of range"},
    {"2024-01-00T00:00:00Z", nullptr, "parsing time \"2024-01-00T00:00:00Z\": day out of range"},
    {"2024-01-32T00:00:00Z", nullptr, "parsing time \"2024-01-32T00:00:00Z\": day out of range"},
    {"2024-01-02T24:00:00Z", nullptr, "parsing time \"2024-01-02T24:00:00Z\": hour out of range"},
    {"2024-01-02T23:60:00Z", nullptr, "parsing time \"2024-01-02T23:60:00Z\": minute out of range"},
    {"2024-01-02T23:59:60Z", nullptr, "parsing time \"2024-01-02T23:59:60Z\": second out of range"},
    {"2024-01-02T03:04:05+25:00", nullptr, "parsing time \"2024-01-02T03:04:05+25:00\": time zone offset hour out of range"},
    {"2024-01-02T03:04:05+24:00", "2024-01-01T03:04:05Z", nullptr},
    {"2024-01-02T03:04:05+01:61", nullptr, "parsing time \"2024-01-02T03:04:05+01:61\": time zone offset minute out of range"},
    {"2024-01-02T03:04:05+01:60", "2024-01-02T01:04:05Z", nullptr},
    {"2024-01-02T03:04:05", nullptr, "parsing time \"2024-01-02T03:04:05\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"\" as \"Z07:00\""},
    {"2024-01-02T03:04:05z", nullptr, "parsing time \"2024-01-02T03:04:05z\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"z\" as \"Z07:00\""},
    {"2024-01-02t03:04:05Z", nullptr, "parsing time \"2024-01-02t03:04:05Z\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"t03:04:05Z\" as \"T\""},
    {"2024-01-02 03:04:05Z", nullptr, "parsing time \"2024-01-02 03:04:05Z\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \" 03:04:05Z\" as \"T\""},
    {"2024-01-02T03:04:05Zjunk", nullptr, "parsing time \"2024-01-02T03:04:05Zjunk\": extra text: \"junk\""},
    {"2024-01-02T03:04:05*01:00", nullptr, "parsing time \"2024-01-02T03:04:05*01:00\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"*01:00\" as \"Z07:00\""},
    {"2024-01-02T03:04:05+0100", nullptr, "parsing time \"2024-01-02T03:04:05+0100\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"+0100\" as \"Z07:00\""},
    {"24-01-02T03:04:05Z", nullptr, "parsing time \"24-01-02T03:04:05Z\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"24-01-02T03:04:05Z\" as \"2006\""},
    {"2024-1-02T03:04:05Z", nullptr, "parsing time \"2024-1-02T03:04:05Z\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"1-02T03:04:05Z\" as \"01\""},
    {"20x4-01-02T03:04:05Z", nullptr, "parsing time \"20x4-01-02T03:04:05Z\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"20x4-01-02T03:04:05Z\" as \"2006\""},
    {"0000-01-01T00:00:00Z", "0000-01-01T00:00:00Z", nullptr},
    {"0000-01-01T00:00:00+01:00", "-0001-12-31T23:00:00Z", nullptr},
    {"0001-01-01T00:00:00Z", "null", nullptr},
    {"0001-01-01T00:00:00.5Z", "0001-01-01T00:00:00Z", nullptr},
    {"9999-12-31T23:59:59-01:00", "10000-01-01T00:59:59Z", nullptr},
    {"", nullptr, "parsing time \"\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"\" as \"2006\""},
    {"abc", nullptr, "parsing time \"abc\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"abc\" as \"2006\""},
    {"caf\xc3""\xa9""", nullptr, "parsing time \"caf\\xc3\\xa9\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"caf\\xc3\\xa9\" as \"2006\""},
    {"2024-01-02T03:04:05.Z", nullptr, "parsing time \"2024-01-02T03:04:05.Z\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \".Z\" as \"Z07:00\""},
    {"2024-01-02T03:04:05.1234567891234Z", "2024-01-02T03:04:05Z", nullptr},
};

TEST(GoTimeTest, ParseAndFormatLikeKubectl) {
  for (const TimeCase& c : kCases) {
    SCOPED_TRACE(c.input);
    Result<GoTime> parsed = ParseRfc3339(c.input);
    if (c.error != nullptr) {
      ASSERT_FALSE(parsed.ok());
      EXPECT_EQ(parsed.error().message, c.error);
      continue;
    }
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_EQ(parsed->IsZero() ? std::string("null") : FormatRfc3339(*parsed), c.output);
  }
}

TEST(GoTimeTest, ZeroTime) {
  GoTime zero;
  EXPECT_TRUE(zero.IsZero());
  EXPECT_FALSE(zero.has_location);
  EXPECT_EQ(FormatRfc3339(zero), "0001-01-01T00:00:00Z");
  Result<GoTime> epoch = ParseRfc3339("1970-01-01T00:00:00Z");
  ASSERT_TRUE(epoch.ok());
  EXPECT_EQ(epoch->unix_seconds, 0);
  EXPECT_TRUE(epoch->has_location);
  Result<GoTime> fraction = ParseRfc3339("1970-01-01T00:00:01.25Z");
  ASSERT_TRUE(fraction.ok());
  EXPECT_EQ(fraction->nanos, 250000000);
}

}  // namespace
}  // namespace tjr::typed
