package dev.cairn.sidecar.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.TaskStarted;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.app.SidecarConfig;
import dev.cairn.sidecar.kafka.HostNames;
import org.junit.jupiter.api.Test;

/**
 * A task sidecar names its host in its {@code TaskStarted}: the configured {@code host}, else the machine's; the
 * coordinator accepts both (signed records, as deployed) and checkpoints go on.
 */
class SidecarHostIT extends SidecarTestBase {

    private static final String HOST = "worker-7.pool-b.cluster.local";

    @Test
    void shouldAnnounceTheConfiguredHostAndTheMachinesWhenNoneIsConfigured() {
        // given a job of two tasks, one sidecar configured with a host, the other left to the machine's name
        String job = CoordinatorTestBed.uniqueJobId("host");
        bed.register(Events.job(job, 300, 10_000, "source", "sink"));
        SidecarConfig source = withHost(sidecars.config(job, "source", 0), HOST);

        // when both start
        Sidecar named = sidecars.start(source, RecordingHook.acking());
        Sidecar machine = sidecars.start(job, "sink", 0, RecordingHook.acking());

        // then the journal keeps each attempt's TaskStarted with its host, and the job checkpoints
        assertThat(bed.awaitJournal(TaskStarted.class, s -> s.getAttemptId().equals(named.attemptId())).getHost())
                .isEqualTo(HOST);
        assertThat(bed.awaitJournal(TaskStarted.class, s -> s.getAttemptId().equals(machine.attemptId())).getHost())
                .isEqualTo(HostNames.orLocal(null));
        assertThat(bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job)).getSubtaskCount())
                .isEqualTo(2);
    }

    private static SidecarConfig withHost(SidecarConfig c, String host) {
        return new SidecarConfig(c.bootstrapServers(), c.topics(), c.jobId(), c.taskId(), c.subtaskIndex(),
                c.hookKind(), c.hookClass(), c.hookUrl(), c.hookCommand(), c.hookTimeout(), c.snapshotTimeout(),
                c.startupTimeout(), c.kafkaProperties(), c.authKey(), c.participant(), c.metricsPort(),
                c.metricsBindAddress(), c.authKeyFile(), host);
    }
}
