package io.rdmareactive;

import io.rdmareactive.provider.verbs.VerbsTestEnvironment;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test class of the API on real verbs (the Soft-RoCE guest, which selects the tag {@code verbs}): each test is
 * reported skipped, with the reason, where no RDMA test host is set or verbs is unavailable; otherwise the class is
 * given {@link TestTransport#verbs} with {@link #scale()} by {@link TestTransportResolver}, in its constructor.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("verbs")
@ExtendWith({OnVerbs.Availability.class, TestTransportResolver.class})
@interface OnVerbs {

    /** @return the factor message counts are scaled by; 1 leaves them */
    double scale() default 1;

    /** Skips the class, saying why, where verbs is not available. */
    final class Availability implements ExecutionCondition {

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(final ExtensionContext context) {
            final String reason = VerbsTestEnvironment.unavailableReason();
            return reason == null ? ConditionEvaluationResult.enabled("verbs is available")
                : ConditionEvaluationResult.disabled(reason);
        }
    }
}
