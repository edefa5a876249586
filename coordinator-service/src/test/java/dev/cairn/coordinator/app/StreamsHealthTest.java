package dev.cairn.coordinator.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.rest.sources.HealthSource.Health;
import dev.cairn.coordinator.rest.sources.JobLocation;
import dev.cairn.coordinator.rest.sources.StateSource;
import dev.cairn.coordinator.streams.StreamsStorage;
import dev.cairn.core.state.CoordinatorState;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.KafkaStreams.State;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
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
    void shouldBeNeitherLiveNorReadyWhileStreamThreadsKeepFailingAndRecoverAMinuteLater() {
        for (int i = 0; i < 4; i++) {
            failures.recordFailure(clock.addAndGet(1_000));
        }

        assertThat(health.liveness()).isEqualTo(Health.down("4 stream thread failures in the last 60 s"));
        assertThat(health.readiness()).isEqualTo(Health.down(
                "the stream threads cannot make progress: 4 failures in the last 60 s"));

        clock.addAndGet(60_000);
        assertThat(health.liveness()).isEqualTo(Health.up());
        assertThat(health.readiness()).isEqualTo(Health.up());
    }

    @Test
    void shouldStayReadyAfterASingleStreamThreadFailure() {
        failures.recordFailure(clock.addAndGet(1_000));

        assertThat(health.readiness()).isEqualTo(Health.up());
        assertThat(health.liveness()).isEqualTo(Health.up());
    }

    @Test
    void shouldNotBeReadyWhileTheStoresOfAnOwnedPartitionCannotBeRead() {
        StreamsHealth withStores = new StreamsHealth(state::get, failures, clock::get, new UnreadablePartition(3));

        assertThat(withStores.readiness()).isEqualTo(Health.down(
                "the stores of partition 3 are not queryable: the stores of partition 3 are restoring"));
        assertThat(withStores.liveness()).isEqualTo(Health.up());
    }

    /** Owns one partition, whose stores throw as Kafka Streams' do while they restore or migrate. */
    private record UnreadablePartition(int partition) implements StateSource {

        @Override
        public JobLocation locate(String jobId) {
            return new JobLocation.Local(partition);
        }

        @Override
        public CoordinatorState reader(int p) {
            return CoordinatorState.over(StreamsStorage.forQueries(name -> {
                throw new InvalidStateStoreException("the stores of partition " + p + " are restoring");
            }));
        }

        @Override
        public List<Integer> localPartitions() {
            return List.of(partition);
        }

        @Override
        public List<JobLocation.Remote> otherInstances() {
            return List.of();
        }
    }
}
