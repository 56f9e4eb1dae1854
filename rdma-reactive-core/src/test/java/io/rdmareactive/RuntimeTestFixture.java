package io.rdmareactive;

import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import reactor.core.Disposable;

/**
 * What tests of the runtime share: a private shared-memory directory per test (so the test gets a runtime of its
 * own: runtimes are shared per directory), the loop threads that were already running when it began (other tests'
 * runtimes), and what the test made and must end even when it fails, ended in reverse order.
 */
abstract class RuntimeTestFixture {

    @ShmTestDirectory
    protected Path directory;
    private List<String> loopsBefore;
    private final List<Disposable> toDispose = new ArrayList<>();

    @BeforeEach
    void noteTheLoopsAlreadyRunning() {
        loopsBefore = ShmTestSupport.runtimeThreads("rdma-loop-");
    }

    @AfterEach
    void disposeWhatTheTestMade() {
        for (int i = toDispose.size() - 1; i >= 0; i--) {
            try {
                toDispose.get(i).dispose();
            } catch (final RuntimeException ignored) {
                // the test's own failure is what matters
            }
        }
    }

    /** @return {@code disposable}, disposed after the test */
    protected final <T extends Disposable> T track(final T disposable) {
        toDispose.add(disposable);
        return disposable;
    }

    /** @return the loop threads started since this test began: those of its runtime */
    protected final List<String> newLoops() {
        return ShmTestSupport.runtimeThreads("rdma-loop-").stream().filter(name -> !loopsBefore.contains(name))
            .toList();
    }
}
