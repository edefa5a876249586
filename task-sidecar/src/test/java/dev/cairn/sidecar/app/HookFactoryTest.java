package dev.cairn.sidecar.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.config.ConfigProblem;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import dev.cairn.sidecar.hook.command.CommandSnapshotHook;
import dev.cairn.sidecar.hook.http.HttpSnapshotHook;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HookFactoryTest {

    private static final SidecarConfig BASE = SidecarConfig.forTask("k:9092", "orders", "sink", 0);

    @TempDir
    Path dir;

    /** A hook the factory can instantiate. */
    public static final class NoOpHook implements SnapshotHook {
        @Override
        public CompletionStage<SnapshotResult> snapshot(SnapshotRequest request) {
            return CompletableFuture.completedFuture(SnapshotResult.of("file:///x", 0));
        }

        @Override
        public void notifyComplete(long checkpointId, long lastSubsumedId) {
        }

        @Override
        public void notifyAborted(long checkpointId, long latestCompletedId) {
        }

        @Override
        public void restore(Optional<RestorePoint> from) {
        }
    }

    /** Not a hook. */
    public static final class NotAHook {
    }

    /** A hook without a no-argument constructor. */
    public static final class HookWithArguments extends HookFactoryTestHooks.Base {
        public HookWithArguments(String name) {
        }
    }

    @Test
    void shouldInstantiateTheJavaHookClassWhenItHasANoArgumentConstructor() throws Exception {
        try (SnapshotHook hook = HookFactory.create(SidecarConfigCopies.withJavaHook(BASE, NoOpHook.class.getName()))) {
            assertThat(hook).isInstanceOf(NoOpHook.class);
        }
    }

    @Test
    void shouldNameTheJavaHookClassWhenItDoesNotExist() {
        assertThatThrownBy(() -> HookFactory.create(SidecarConfigCopies.withJavaHook(BASE, "com.example.Missing")))
                .isInstanceOf(ConfigProblem.class).hasMessageContaining("hook.class")
                .hasMessageContaining("com.example.Missing").hasMessageContaining("class path");
    }

    @Test
    void shouldNameTheJavaHookClassWhenItIsNoHook() {
        assertThatThrownBy(() -> HookFactory.create(SidecarConfigCopies.withJavaHook(BASE, NotAHook.class.getName())))
                .isInstanceOf(ConfigProblem.class).hasMessageContaining("does not implement");
    }

    @Test
    void shouldNameTheJavaHookClassWhenItHasNoNoArgumentConstructor() {
        assertThatThrownBy(() -> HookFactory.create(
                        SidecarConfigCopies.withJavaHook(BASE, HookWithArguments.class.getName())))
                .isInstanceOf(ConfigProblem.class).hasMessageContaining("no-argument constructor");
    }

    @Test
    void shouldNameTheJavaHookClassWhenItsConstructorFails() {
        assertThatThrownBy(() -> HookFactory.create(
                        SidecarConfigCopies.withJavaHook(BASE, HookFactoryTestHooks.Failing.class.getName())))
                .isInstanceOf(ConfigProblem.class).hasMessageContaining("constructor")
                .hasMessageContaining("no license");
    }

    @Test
    void shouldUseTheServiceLoaderHookWhenNoClassIsNamed() throws Exception {
        ClassLoader loader = servicesLoader(NoOpHook.class.getName());

        try (SnapshotHook hook = HookFactory.create(BASE, loader)) {
            assertThat(hook).isInstanceOf(NoOpHook.class);
        }
    }

    @Test
    void shouldSayNoHookIsFoundWhenNoClassIsNamedAndNoneIsRegistered() {
        assertThatThrownBy(() -> HookFactory.create(BASE, servicesLoader()))
                .isInstanceOf(ConfigProblem.class).hasMessageContaining("hook.class")
                .hasMessageContaining("ServiceLoader");
    }

    @Test
    void shouldListTheRegisteredHooksWhenSeveralAreFoundAndNoneIsNamed() {
        ClassLoader loader = servicesLoader(NoOpHook.class.getName(), HookFactoryTestHooks.Silent.class.getName());

        assertThatThrownBy(() -> HookFactory.create(BASE, loader)).isInstanceOf(ConfigProblem.class)
                .hasMessageContaining(NoOpHook.class.getName())
                .hasMessageContaining(HookFactoryTestHooks.Silent.class.getName());
    }

    /** A class loader whose only SnapshotHook registrations are {@code providers}. */
    private ClassLoader servicesLoader(String... providers) {
        Path file = dir.resolve("services-" + providers.length);
        try {
            Files.writeString(file, String.join("\n", providers) + "\n");
            URL url = file.toUri().toURL();
            return new ClassLoader(getClass().getClassLoader()) {
                @Override
                public Enumeration<URL> getResources(String name) throws IOException {
                    return name.equals("META-INF/services/" + SnapshotHook.class.getName())
                            ? Collections.enumeration(providers.length == 0 ? List.of() : List.of(url))
                            : super.getResources(name);
                }
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void shouldCreateHttpAndCommandHooksWhenTheirKindIsConfigured() throws Exception {
        try (SnapshotHook http = HookFactory.create(SidecarConfigCopies.withHttpHook(BASE,
                URI.create("http://127.0.0.1:9/w"), Duration.ofSeconds(1)));
             SnapshotHook command = HookFactory.create(SidecarConfigCopies.withCommandHook(BASE, List.of("true"),
                     Duration.ofSeconds(1)))) {
            assertThat(http).isInstanceOf(HttpSnapshotHook.class);
            assertThat(command).isInstanceOf(CommandSnapshotHook.class);
        }
    }
}
