package dev.cairn.sidecar.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.sidecar.metrics.SidecarHealth;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class HealthCheckTest {

    private final HealthCheck health = new HealthCheck();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicBoolean connected = new AtomicBoolean(true);
    private final AtomicReference<String> stopReason = new AtomicReference<>();
    private final HealthCheck.Loop loop = new HealthCheck.Loop(running::get,
            () -> Optional.ofNullable(stopReason.get()), connected::get);

    @Test
    void shouldBeDownSayingItStartsWhenTheSidecarHasNotStartedYet() {
        assertThat(health.get()).isEqualTo(SidecarHealth.down(HealthCheck.STARTING));
    }

    @Test
    void shouldBeUpWhenStartedConnectedAndRunning() {
        health.started(loop);

        assertThat(health.get()).isEqualTo(SidecarHealth.healthy());
    }

    @Test
    void shouldBeDownWhenTheControlConsumerHearsNothingFromKafka() {
        health.started(loop);
        connected.set(false);

        assertThat(health.get()).isEqualTo(SidecarHealth.down(HealthCheck.NOT_CONNECTED));
    }

    @Test
    void shouldSayWhyWhenTheLoopStoppedOnItsOwn() {
        health.started(loop);
        stopReason.set("the job fell back from checkpoint 7");
        running.set(false);

        assertThat(health.get()).isEqualTo(SidecarHealth.down(HealthCheck.STOPPED
                + ": the job fell back from checkpoint 7"));
    }

    @Test
    void shouldBeDownWithoutAReasonWhenTheLoopStoppedOnAnError() {
        health.started(loop);
        running.set(false);

        assertThat(health.get()).isEqualTo(SidecarHealth.down(HealthCheck.STOPPED));
    }

    @Test
    void shouldBeDownOnceClosingWhateverTheLoopSays() {
        health.started(loop);
        health.closing();

        assertThat(health.get()).isEqualTo(SidecarHealth.down(HealthCheck.CLOSING));
    }
}
