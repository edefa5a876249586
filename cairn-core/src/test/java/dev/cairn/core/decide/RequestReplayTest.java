package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.checkpointRequest;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.state.AdmittedRequest;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.StateTable;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.RemoveJob;
import dev.cairn.events.RequestAdmitted;
import dev.cairn.events.TriggerRequest;
import org.junit.jupiter.api.Test;

/**
 * Requests as the requests topic delivers them ({@link Command.Delivered}): a fresh request is admitted and its key
 * recorded; a stale one, or one under a key taken within the window (a replay of a copied signed request, or a retry),
 * is refused with its reason and changes nothing else. Every scenario's journal folds into the live state (the
 * fixture checks it), so a restore and the audit keep the same keys.
 */
class RequestReplayTest {

    private static final long WINDOW = InputLimits.DEFAULT_REQUEST_FRESHNESS_MS;

    private static Command.Delivered delivered(Command.Input request, long appendedAtMs) {
        return new Command.Delivered(request, appendedAtMs);
    }

    private static Command.RegisterJob register(JobSpec spec, long requestedAtMs) {
        return new Command.RegisterJob(JobSpec.newBuilder(spec).setTimestampMs(requestedAtMs).build(), 0.0);
    }

    private static Command.ChangeJobStatus status(JobStatus status, long requestedAtMs) {
        return new Command.ChangeJobStatus(JobStatusChange.newBuilder().setJobId(JOB).setStatus(status)
                .setTimestampMs(requestedAtMs).build(), 0.0);
    }

    private static Command.RequestTrigger trigger(String requestId, long requestedAtMs) {
        return new Command.RequestTrigger(TriggerRequest.newBuilder(checkpointRequest(requestId).event())
                .setTimestampMs(requestedAtMs).build());
    }

    /** A running job, its first periodic trigger due at 2000. */
    private static Scenario running() {
        return Scenario.runningJob(spec(), 2000);
    }

    private static String rejection(Then then) {
        then.thenTypes(CommandRejected.class);
        return then.single(CommandRejected.class).getReason();
    }

    @Test
    void shouldAdmitAFreshRequestBeforeDecidingIt() {
        Then then = Scenario.given().when(delivered(register(spec(), 1000), 1500), 1600);

        RequestAdmitted admitted = then.events().stream().filter(RequestAdmitted.class::isInstance)
                .map(RequestAdmitted.class::cast).findFirst().orElseThrow();
        assertThat(then.events().get(0)).isSameAs(admitted);
        assertThat(then.has(JobSpec.class)).isTrue();
        assertThat(admitted.getRequestType()).isEqualTo("JobSpec");
        assertThat(admitted.getRequestKey()).startsWith("sha256:").hasSize("sha256:".length() + 32);
        assertThat(admitted.getRequestedAtMs()).isEqualTo(1000);
        assertThat(admitted.getAppendedAtMs()).isEqualTo(1500);
        assertThat(admitted.getWindowMs()).isEqualTo(WINDOW);
        assertThat(then.state().get(StateTable.ADMISSIONS, JOB).orElseThrow().getRequests()).containsExactly(
                AdmittedRequest.newBuilder().setRequestKey(admitted.getRequestKey()).setRequestedAtMs(1000).build());
    }

    @Test
    void shouldRefuseARequestAppendedLongerThanTheWindowAfterItWasMade() {
        Scenario scenario = running();

        String reason = rejection(scenario.when(delivered(trigger("late", 1000), 1000 + WINDOW + 1), 400_000));

        assertThat(reason).startsWith("stale request: made at 1000 (its timestampMs) but appended to the requests "
                + "topic at 301001, 300001 ms apart, more than the freshness window of 300000 ms");
        assertThat(scenario.job(JOB).getQueue()).isEmpty();
        assertThat(scenario.state().get(StateTable.ADMISSIONS, JOB)).isEmpty();
    }

    @Test
    void shouldRefuseARequestMadeLongerThanTheWindowAfterItWasAppended() {
        String reason = rejection(Scenario.given().when(delivered(register(spec(), 1000 + WINDOW + 1), 1000), 2000));

        assertThat(reason).contains("the requester's clock is off");
    }

    @Test
    void shouldRefuseAReplayedStatusChangeAfterTheJobMovedOn() {
        Scenario scenario = running()
                .and(delivered(status(JobStatus.SUSPENDED, 5000), 5010), 5020)
                .and(delivered(status(JobStatus.RUNNING, 6000), 6010), 6020);

        String reason = rejection(scenario.when(delivered(status(JobStatus.SUSPENDED, 5000), 7000), 7010));

        assertThat(reason).matches("request sha256:[0-9a-f]{32} \\(made at 5000\\) was taken before, made at 5000: "
                + "a replay, or a retry of a request already taken; nothing done");
        assertThat(scenario.job(JOB).getStatus()).isEqualTo(JobStatus.RUNNING);
    }

    @Test
    void shouldRefuseAReplayedJobSpecAfterTheSpecWasReplaced() {
        JobSpec first = JobSpec.newBuilder(spec()).setTimestampMs(1000).build();
        JobSpec second = JobSpec.newBuilder(spec(config().setIntervalMs(5000))).setTimestampMs(2000).build();
        Scenario scenario = Scenario.given()
                .and(delivered(new Command.RegisterJob(first, 0.0), 1000), 1000)
                .and(delivered(new Command.RegisterJob(second, 0.0), 2000), 2000);

        rejection(scenario.when(delivered(new Command.RegisterJob(first, 0.0), 3000), 3000));

        assertThat(scenario.state().spec(JOB).orElseThrow().getConfig().getIntervalMs()).isEqualTo(5000);
    }

    @Test
    void shouldTakeARetriedRequestIdOnceOnly() {
        Scenario scenario = running().and(delivered(trigger("r1", 1500), 1500), 1500);
        assertThat(scenario.job(JOB).getPending()).hasSize(1);

        String reason = rejection(scenario.when(delivered(trigger("r1", 1700), 1700), 1700));

        assertThat(reason).startsWith("request id:r1 (made at 1700) was taken before, made at 1500");
        assertThat(scenario.job(JOB).getPending()).hasSize(1);
    }

    @Test
    void shouldKnowATriggerRequestIdAfterItsCheckpointLeftTheHistory() {
        Scenario scenario = running().and(trigger("r1", 1500), 1500).ackAll(JOB, 1, 1600);
        long now = 2000;
        for (long id = 2; id <= 13; id++, now += 1000) {
            scenario.and(tick(), now).ackAll(JOB, id, now + 100);
        }
        assertThat(scenario.job(JOB).getHistoryIds()).doesNotContain(1L);

        Then then = scenario.when(trigger("r1", now), now);

        assertThat(then.has(CheckpointTriggered.class)).as("a retry of r1 long after it ran").isFalse();
    }

    @Test
    void shouldForgetTheKeysOfRequestsMadeTwoWindowsBeforeTheNewest() {
        Scenario scenario = running().and(delivered(trigger("old", 1500), 1500), 1500);
        long later = 1500 + 2 * WINDOW + 1;

        scenario.when(delivered(trigger("new", later), later), later);

        assertThat(scenario.state().get(StateTable.ADMISSIONS, JOB).orElseThrow().getRequests())
                .extracting(AdmittedRequest::getRequestKey).containsExactly("id:new");
    }

    @Test
    void shouldRefuseRequestsBeyondTheKeysAJobKeeps() {
        Scenario scenario = running();
        for (int i = 0; i < RequestAdmission.MAX_ADMITTED; i++) {
            scenario.and(delivered(status(i % 2 == 0 ? JobStatus.SUSPENDED : JobStatus.RUNNING, 3000 + i), 3000 + i),
                    3000 + i);
        }

        String reason = rejection(scenario.when(delivered(trigger("one-more", 5000), 5000), 5000));

        assertThat(reason).startsWith("the job took 1000 requests within the last 600000 ms");
    }

    @Test
    void shouldCheckButNotRecordARequestForAJobThatDoesNotExist() {
        Then then = Scenario.given().when(delivered(trigger("r1", 1000), 1000), 1000);

        assertThat(rejection(then)).contains(JOB);
        assertThat(then.state().get(StateTable.ADMISSIONS, JOB)).isEmpty();
    }

    @Test
    void shouldRefuseAReplayedRegistrationOfARemovedJob() {
        JobSpec registration = JobSpec.newBuilder(spec()).setTimestampMs(1000).build();
        RemoveJob removal = RemoveJob.newBuilder().setJobId(JOB).setRequestId("rm").setRequester("test")
                .setTimestampMs(4000).build();
        Scenario scenario = Scenario.given()
                .and(delivered(new Command.RegisterJob(registration, 0.0), 1000), 1000)
                .and(delivered(status(JobStatus.SUSPENDED, 3000), 3000), 3000)
                .and(delivered(new Command.Remove(removal), 4000), 4000);
        assertThat(scenario.state().jobIds()).isEmpty();

        rejection(scenario.when(delivered(new Command.RegisterJob(registration, 0.0), 5000), 5000));

        assertThat(scenario.state().jobIds()).isEmpty();
    }

    @Test
    void shouldCheckOnlyTheKeyOfARequestWhoseAppendTimeIsNotKnown() {
        Scenario scenario = running();
        long unknown = Command.Delivered.UNKNOWN_TIME;

        Then then = scenario.when(delivered(trigger("r1", 1), unknown), 400_000);

        assertThat(then.events().get(0)).isInstanceOf(RequestAdmitted.class);
        assertThat(then.single(RequestAdmitted.class).getAppendedAtMs()).isNull();
        assertThat(then.has(TriggerRequest.class)).isTrue();
    }
}
