package io.rdmareactive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code info} on whatever machine runs the tests: the shared-memory provider's line, the verbs provider's line with
 * its reason, and what auto picks. On a machine without RDMA (every CI machine here) verbs is unavailable, the reason
 * says why, auto picks shm and the status is 1; on one with a usable device the status is 0.
 */
class InfoCommandTest {

    @Test
    void printsEveryProvidersAvailabilityAndWhatAutoPicks() {
        final CliRun run = CliRun.of("info");

        assertThat(run.lines()).as(run.toString())
            .startsWith("rdma-reactive info: RDMA devices seen through libibverbs/librdmacm (Java FFM)")
            .contains("providers:")
            .anyMatch(line -> line.matches("  shm    available: .+"))
            .anyMatch(line -> line.matches("  verbs  (available|unavailable): .+"))
            .anyMatch(line -> line.matches("auto picks: (shm|verbs) \\(.+\\)"));
        final String verbs = run.lines().stream().filter(line -> line.startsWith("  verbs  ")).findFirst()
            .orElseThrow();
        if (verbs.startsWith("  verbs  unavailable: ")) {
            assertThat(verbs.substring("  verbs  unavailable: ".length())).as("why verbs cannot run")
                .hasSizeGreaterThan(20);
            assertThat(run.lines()).anyMatch(line -> line.startsWith("auto picks: shm ("));
            assertThat(run.status()).isEqualTo(1);
        } else {
            assertThat(run.status()).isZero();
        }
    }
}
