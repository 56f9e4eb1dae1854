package io.rdmareactive;

import io.rdmareactive.provider.verbs.VerbsTestEnvironment;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test class of the API on real verbs (the Soft-RoCE guest, which selects the tag {@code verbs}): each test is
 * reported skipped, with the reason, where no RDMA test host is set or verbs is unavailable; otherwise {@link ShmTestSupport}'s clients and servers use the
 * verbs provider (and message counts are scaled by {@link #scale()}) for the class, and the defaults come back after.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("verbs")
@ExtendWith(OnVerbs.Provider.class)
@interface OnVerbs {

    /** @return the factor message counts are scaled by ({@link ShmTestSupport#SCALE_PROPERTY}); "1" leaves them */
    String scale() default "1";

    /** Sets the provider (and the scale) before the class, and clears them after it; skips it where verbs is not. */
    final class Provider implements ExecutionCondition, BeforeAllCallback, AfterAllCallback {

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(final ExtensionContext context) {
            final String reason = VerbsTestEnvironment.unavailableReason();
            return reason == null ? ConditionEvaluationResult.enabled("verbs is available")
                : ConditionEvaluationResult.disabled(reason);
        }

        @Override
        public void beforeAll(final ExtensionContext context) {
            System.setProperty(ShmTestSupport.PROVIDER_PROPERTY, "verbs");
            final String scale = context.getRequiredTestClass().getAnnotation(OnVerbs.class).scale();
            if (!"1".equals(scale)) {
                System.setProperty(ShmTestSupport.SCALE_PROPERTY, scale);
            }
        }

        @Override
        public void afterAll(final ExtensionContext context) {
            System.clearProperty(ShmTestSupport.PROVIDER_PROPERTY);
            System.clearProperty(ShmTestSupport.SCALE_PROPERTY);
        }
    }
}
