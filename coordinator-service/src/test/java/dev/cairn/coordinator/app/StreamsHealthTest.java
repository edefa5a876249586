package dev.cairn.coordinator.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.query.HealthSource.Health;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.KafkaStreams.State;
import org.junit.jupiter.api.Test;

class StreamsHealthTest {

    private final AtomicReference<State> state = new AtomicReference<>(State.RUNNING);
    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final StreamThreadFailures failures = new StreamThreadFailures();
    private final StreamsHealth health = new StreamsHealth(state::get, failures, clock::get);

    @Test
    void shouldBeLiveAndReadyWhileRunning() {
        assertThat(health.liveness()).isEqualTo(Health.up());
        assertThat(health.readiness()).isEqualTo(Health.up());
    }

    @Test
    void shouldBeLiveButNotReadyWhileStartingOrRebalancing() {
        for (State starting : new State[] {State.CREATED, State.REBALANCING}) {
            state.set(starting);

            assertThat(health.liveness().ok()).isTrue();
            assertThat(health.readiness()).isEqualTo(Health.down("Kafka Streams is " + starting + ", not RUNNING"));
        }
    }

    @Test
    void shouldBeDeadOnceStreamsStoppedOrIsStopping() {
        for (State stopped : new State[] {State.ERROR, State.PENDING_SHUTDOWN, State.NOT_RUNNING}) {
            state.set(stopped);

            assertThat(health.liveness()).isEqualTo(Health.down("Kafka Streams is " + stopped));
            assertThat(health.readiness().ok()).isFalse();
        }
    }

    @Test
    void shouldBeDeadWhileStreamThreadsKeepFailingAndRecoverAMinuteLater() {
        for (int i = 0; i < 4; i++) {
            failures.recordFailure(clock.addAndGet(1_000));
        }

        assertThat(health.liveness()).isEqualTo(Health.down("4 stream thread failures in the last 60 s"));
        assertThat(health.readiness().ok()).isTrue();

        clock.addAndGet(60_000);
        assertThat(health.liveness()).isEqualTo(Health.up());
    }
}
