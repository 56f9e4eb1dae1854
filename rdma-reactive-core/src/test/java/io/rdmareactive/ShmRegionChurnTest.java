package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A long-lived shm device (a server's) allocates and frees regions on several threads at once, as it does when it
 * accepts connections while its driver closes old ones: no allocation may trip over a file that a region being freed
 * has not unlinked yet. (The Reactive Streams TCK's stochastic test, 100 connections in turn on one server, found a
 * server refusing a connection with "cannot create .../&lt;device&gt;.mr2: the file already exists".)
 */
class ShmRegionChurnTest {

    @ShmTestDirectory
    private Path directory;

    @Test
    void regionsAllocatedAndFreedOnSeveralThreadsAtOnceNeverCollide() throws Exception {
        final int threads = 3;
        final int rounds = 1_500;
        try (RdmaDevice device = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build())) {
            final List<CompletableFuture<Void>> churners = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                churners.add(CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < rounds; i++) {
                        final MemoryRegion region = device.allocateRegion(64 * 1024,
                            Access.LOCAL_WRITE | Access.REMOTE_WRITE);
                        region.buffer().putLong(0, i);
                        region.close();
                    }
                }, command -> Thread.ofPlatform().name("churn").start(command)));
            }
            for (final CompletableFuture<Void> churner : churners) {
                assertThat(churner).as("a thread allocating and freeing %d regions", rounds)
                    .succeedsWithin(2, TimeUnit.MINUTES);
            }
            assertThat(device.registeredBytes()).as("bytes still registered").isZero();
        }
        assertThat(ShmTestSupport.files(directory)).as("files left").isEmpty();
    }
}
