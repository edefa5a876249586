package dev.cairn.coordinator.streams;

import static dev.cairn.coordinator.streams.CoordinatorDriver.spec;
import static dev.cairn.coordinator.streams.CoordinatorDriver.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.SigningKey;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestAdmitted;
import dev.cairn.events.RequestEnvelope;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A signed request written again to the requests topic, as someone who can write the topic but holds no key would
 * copy it (the same value, the same signature): the coordinator takes its record timestamp as the broker's append
 * time, refuses the copy within the freshness window as seen and after it as stale, each with the reason in the
 * journal, and the job stays as the requests since left it.
 */
class RequestReplayTopologyTest {

    private static final String JOB = "job";

    @TempDir
    Path stateDir;

    private CoordinatorDriver cairn;
    private TestOutputTopic<String, JournalEnvelope> journal;

    @BeforeEach
    void start() {
        cairn = CoordinatorDriver.on(stateDir).signedWith(SigningKey.generate()).start();
        journal = cairn.journal();
        cairn.register(spec(JOB, task("map", 1)));
    }

    @AfterEach
    void close() {
        cairn.close();
    }

    private RequestEnvelope status(JobStatus status, long madeAtMs) {
        return new RequestEnvelope(JobStatusChange.newBuilder().setJobId(JOB).setStatus(status)
                .setTimestampMs(madeAtMs).build());
    }

    /** The job suspended by a request made at {@code madeAt}, then resumed; returns the suspension, journal read. */
    private RequestEnvelope suspendedThenResumed(long madeAt) {
        RequestEnvelope suspend = status(JobStatus.SUSPENDED, madeAt);
        cairn.send(JOB, suspend);
        cairn.send(JOB, status(JobStatus.RUNNING, madeAt + 1000));
        journal.readValuesToList();
        return suspend;
    }

    private List<Object> events() {
        return journal.readValuesToList().stream().map(JournalEnvelope::getEvent).toList();
    }

    private JobStatus status() {
        return cairn.reader().job(JOB).orElseThrow().getStatus();
    }

    @Test
    void shouldRefuseASuspensionWrittenAgainAfterTheJobWasResumed() {
        long madeAt = cairn.now();
        RequestEnvelope suspend = suspendedThenResumed(madeAt);
        assertThat(status()).isEqualTo(JobStatus.RUNNING);

        cairn.requests().pipeInput(JOB, suspend, Instant.ofEpochMilli(madeAt + 2000));

        List<Object> events = events();
        assertThat(events).hasExactlyElementsOfTypes(CommandRejected.class);
        assertThat(((CommandRejected) events.get(0)).getReason()).contains("was taken before")
                .contains("a replay, or a retry of a request already taken; nothing done");
        assertThat(status()).isEqualTo(JobStatus.RUNNING);
    }

    @Test
    void shouldRefuseARequestWrittenAgainAfterTheFreshnessWindow() {
        long madeAt = cairn.now();
        RequestEnvelope suspend = suspendedThenResumed(madeAt);
        cairn.advance(Duration.ofMinutes(11));
        journal.readValuesToList();

        cairn.requests().pipeInput(JOB, suspend, Instant.ofEpochMilli(cairn.now()));

        List<Object> events = events();
        assertThat(events).hasExactlyElementsOfTypes(CommandRejected.class);
        assertThat(((CommandRejected) events.get(0)).getReason()).startsWith("stale request: made at " + madeAt);
        assertThat(status()).isEqualTo(JobStatus.RUNNING);
    }

    @Test
    void shouldJournalTheAdmissionOfAFreshRequestWithTheBrokersAppendTime() {
        long madeAt = cairn.now() + 500;
        journal.readValuesToList();

        cairn.requests().pipeInput(JOB, status(JobStatus.SUSPENDED, madeAt), Instant.ofEpochMilli(madeAt + 40));

        RequestAdmitted admitted = (RequestAdmitted) events().get(0);
        assertThat(admitted.getRequestType()).isEqualTo("JobStatusChange");
        assertThat(admitted.getRequestedAtMs()).isEqualTo(madeAt);
        assertThat(admitted.getAppendedAtMs()).isEqualTo(madeAt + 40);
        assertThat(status()).isEqualTo(JobStatus.SUSPENDED);
    }
}
