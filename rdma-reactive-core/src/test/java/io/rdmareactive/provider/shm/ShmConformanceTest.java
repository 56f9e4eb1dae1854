package io.rdmareactive.provider.shm;

import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.conformance.ProviderConformanceTest;

/**
 * The provider conformance suite against the shared-memory provider: every device of a test keeps its files in the
 * test's scratch directory, so two devices of one JVM (and a second JVM) find each other there; addresses are plain
 * names, listened on as {@code <directory>/<name>.sock}.
 */
class ShmConformanceTest extends ProviderConformanceTest {

    @Override
    protected String providerName() {
        return "shm";
    }

    @Override
    protected DeviceOptions deviceOptions() {
        return DeviceOptions.builder().directory(scratchDirectory()).build();
    }

    @Override
    protected String address(final String uniqueName) {
        return uniqueName;
    }
}
