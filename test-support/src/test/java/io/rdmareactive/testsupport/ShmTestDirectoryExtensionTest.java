package io.rdmareactive.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A test's {@link ShmTestDirectory} fields and parameters are fresh directories before it starts and gone after it. */
class ShmTestDirectoryExtensionTest extends ShmTestDirectoryExtensionTestBase {

    /** Every directory the tests of this class were given; all must be gone once the class is done. */
    private static final List<Path> GIVEN = new CopyOnWriteArrayList<>();

    @ShmTestDirectory
    private Path directory;
    private Path seenBeforeEach;

    @BeforeEach
    void noteTheDirectory(@ShmTestDirectory final Path fromBeforeEach) {
        seenBeforeEach = directory;
        GIVEN.add(fromBeforeEach);
    }

    @AfterEach
    void fillTheDirectory() throws IOException {
        // what a test leaves behind, even in a subdirectory, goes with the directory
        Files.createDirectories(directory.resolve("sub"));
        Files.writeString(directory.resolve("sub").resolve("left"), "behind");
        Files.writeString(inherited.resolve("left"), "behind");
    }

    @AfterAll
    static void everyDirectoryIsGone() {
        // three tests, each with two fields and a parameter of its @BeforeEach method, and one test parameter
        assertThat(GIVEN).hasSize(3 * 3 + 1).allSatisfy(path -> assertThat(path).doesNotExist());
    }

    @Test
    void theFieldIsAnEmptyDirectoryUnderTmpBeforeTheBeforeEachMethodsRun() throws IOException {
        GIVEN.add(directory);
        GIVEN.add(inherited);
        assertThat(seenBeforeEach).isSameAs(directory);
        assertThat(directory).isEmptyDirectory().hasParentRaw(Path.of("/tmp"));
        assertThat(inherited).isEmptyDirectory().isNotEqualTo(directory);
    }

    @Test
    void aParameterIsADirectoryOfItsOwn(@ShmTestDirectory final Path parameter) {
        GIVEN.add(directory);
        GIVEN.add(inherited);
        GIVEN.add(parameter);
        assertThat(parameter).isEmptyDirectory().isNotEqualTo(directory).isNotEqualTo(inherited);
    }

    @Test
    void eachTestHasDirectoriesOfItsOwn() {
        GIVEN.add(directory);
        GIVEN.add(inherited);
        assertThat(directory).isEmptyDirectory();
        assertThat(GIVEN.subList(0, GIVEN.size() - 2)).doesNotContain(directory, inherited);
    }
}
