package io.rdmareactive.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Files;
import java.nio.file.Path;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.StringLength;

/** One rule for names in file names, and the default private directory built with it. */
class FileNamesTest {

    @Example
    void namesAreLettersDigitsDotsUnderscoresAndDashesUpTo64() {
        assertThat(FileNames.isName("orders")).isTrue();
        assertThat(FileNames.isName("shm-1234-1.v2_b")).isTrue();
        assertThat(FileNames.isName("x".repeat(64))).isTrue();
        assertThat(FileNames.isName("x".repeat(65))).isFalse();
        assertThat(FileNames.isName("")).isFalse();
        assertThat(FileNames.isName(null)).isFalse();
        assertThat(FileNames.isName("a/b")).isFalse();
        assertThat(FileNames.isName("a b")).isFalse();
        assertThat(FileNames.isName("ümlaut")).isFalse();
    }

    @Example
    void aBadNameIsRefusedWithOneMessage() {
        assertThat(FileNames.requireName("orders", "a driver name")).isEqualTo("orders");
        assertThatIllegalArgumentException().isThrownBy(() -> FileNames.requireName("../x", "a driver name"))
            .withMessage("'../x' is not a driver name: use 1 to 64 letters, digits, '.', '_' or '-'");
    }

    @Property(tries = 300)
    void sanitizingMakesANameOfAnyTextOfTheRightLength(@ForAll @StringLength(min = 1, max = 64) final String text) {
        final String sanitized = FileNames.sanitize(text);
        assertThat(FileNames.isName(sanitized)).as(sanitized).isTrue();
        assertThat(sanitized.length()).as("one character per code point").isEqualTo(text.codePointCount(0,
            text.length()));
        if (FileNames.isName(text)) {
            assertThat(sanitized).isEqualTo(text);
        }
    }

    @Example
    void theDefaultDirectoryIsTheUsersUnderDevShm() {
        final Path expectedParent = Files.isDirectory(PrivateDirectory.DEFAULT_PARENT) ? PrivateDirectory.DEFAULT_PARENT
            : Path.of(System.getProperty("java.io.tmpdir"));
        assertThat(PrivateDirectory.defaultPath()).isEqualTo(expectedParent.resolve("rdma-reactive-"
            + FileNames.sanitize(System.getProperty("user.name", "user"))));
        assertThat(FileNames.isName(PrivateDirectory.defaultPath().getFileName().toString())).isTrue();
    }
}
