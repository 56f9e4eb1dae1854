package io.rdmareactive.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A private shared-memory directory for each test: an instance field or a parameter of type {@link java.nio.file.Path}
 * so annotated gets a fresh, short directory under /tmp (socket paths hold 107 bytes) before the test's
 * {@code @BeforeEach} methods run, and it is deleted, with what the test left in it, after its {@code @AfterEach}
 * methods ({@link ShmTestDirectoryExtension}).
 *
 * <pre>{@code
 * @ShmTestDirectory
 * private Path directory;
 *
 * @Test
 * void aTestWithASecondDirectory(@ShmTestDirectory final Path other) { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER})
@ExtendWith(ShmTestDirectoryExtension.class)
public @interface ShmTestDirectory {
}
