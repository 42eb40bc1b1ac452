// apimachinery v0.34.1 field/errors.go formatting and aggregation.
#include "validate/field_error.h"

#include <gtest/gtest.h>

namespace tjr::validate {
namespace {

TEST(FieldError, InvalidPrintsQuotedStringsPlainIntsAndJsonAsIs) {
  EXPECT_EQ((FieldError{ErrorType::kInvalid, "spec.x", BadValue::String("a\"b"), "bad"}).Error(),
            "spec.x: Invalid value: \"a\\\"b\": bad");
  EXPECT_EQ((FieldError{ErrorType::kInvalid, "spec.n", BadValue::Int(2), "must be 1"}).Error(),
            "spec.n: Invalid value: 2: must be 1");
  EXPECT_EQ((FieldError{ErrorType::kInvalid, "spec.r", BadValue::Json("{\"name\":\"x\"}"), "d"}).Error(),
            "spec.r: Invalid value: {\"name\":\"x\"}: d");
}

TEST(FieldError, RequiredForbiddenAndInternalNeverPrintTheValue) {
  EXPECT_EQ((FieldError{ErrorType::kRequired, "spec.runtimeRef", BadValue::String("x"), ""}).Error(),
            "spec.runtimeRef: Required value");
  EXPECT_EQ((FieldError{ErrorType::kForbidden, "spec.p", BadValue::Omit(), "no"}).Error(), "spec.p: Forbidden: no");
  EXPECT_EQ((FieldError{ErrorType::kInternal, "spec.p", BadValue::Omit(), "boom"}).Error(),
            "spec.p: Internal error: boom");
}

TEST(FieldError, DuplicateWithoutDetail) {
  EXPECT_EQ((FieldError{ErrorType::kDuplicate, "spec.trainer.env[1]", BadValue::Json("{\"name\":\"A\"}"), ""}).Error(),
            "spec.trainer.env[1]: Duplicate value: {\"name\":\"A\"}");
}

TEST(Aggregate, OneAsItselfSeveralBracketedDuplicatesDropped) {
  EXPECT_EQ(AggregateMessages({}), "");
  EXPECT_EQ(AggregateMessages({"a: x"}), "a: x");
  EXPECT_EQ(AggregateMessages({"a: x", "a: x"}), "a: x");
  EXPECT_EQ(AggregateMessages({"a: x", "b: y", "a: x", "c: z"}), "[a: x, b: y, c: z]");
}

}  // namespace
}  // namespace tjr::validate
