package io.rdmareactive.fault;

import io.rdmareactive.provider.verbs.VerbsTestEnvironment;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The fault-injection scenario of {@link FaultInjectionTest} over real verbs (Soft-RoCE in the guest of
 * {@code softroce/run}): the wrapper sits on the verbs provider exactly as on shared memory, and each fault ends
 * the faulty connection naming it, or is recovered from, while the other connection loses nothing.
 */
@Tag("verbs")
class VerbsFaultInjectionTest {

    @BeforeAll
    static void requireDevice() {
        VerbsTestEnvironment.assumeVerbs();
    }

    @ParameterizedTest
    @EnumSource(Fault.class)
    void theFaultyConnectionRecoversOrEndsNamingTheFaultAndTheOtherIsUndisturbed(final Fault fault) throws Exception {
        FaultInjectionTest.run(fault, 1, "verbs", VerbsTestEnvironment.uniqueAddress());
    }
}
