package dev.cairn.kit.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.kit.sink.RestorePlan;
import dev.cairn.kit.sink.RestorePlan.Verdict;
import dev.cairn.kit.task.KafkaSourceTask;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Stop-with-savepoint on a source → count → sink dataflow of kit tasks against the in-JVM KRaft broker, with the
 * test in the coordinator's place ({@link KitJob}): the stop's savepoint is the job's restore point, so a sink that
 * crashed before committing it, and a job resumed after the stop, restore it; a stop with drain ends the input.
 */
class StopWithSavepointIT extends KitJobTestBase {

    StopWithSavepointIT() {
        super("stop");
    }

    @Test
    void shouldCommitTheStopsSavepointOnceWhenASinkCrashedBeforeCommittingIt() throws Exception {
        // given a running job with results committed, and more input in flight
        job.start();
        produce(1_000);
        awaitCommittedAtLeast(1);
        produce(1_000);

        // when the job stops with a savepoint that sink-0 never commits (it crashed), and sink-0 restarts
        long savepoint = job.stop(false, Set.of("sink-0"));
        awaitStopped("source-0", "source-1", "count-0", "count-1", "sink-1");
        job.restart("sink-0");

        // then it restores the stop's savepoint and commits what the output lacks: every record read, once
        assertThat(job.restorePlan("sink-0")).map(RestorePlan::verdict).hasValue(Verdict.COMMIT_PENDING);
        assertThat(job.restorePlan("sink-0")).map(RestorePlan::restored).hasValue(savepoint);
        awaitCommittedExactlyOnceUpTo(job.inputRead(savepoint));
    }

    @Test
    void shouldGoOnExactlyOnceFromTheStopsSavepointWhenTheJobResumes() throws Exception {
        // given a job stopped with a savepoint, without drain, while input was in flight
        job.start();
        produce(1_000);
        awaitCommittedAtLeast(1);
        produce(1_000);
        long savepoint = stopAndAwait();
        awaitCommittedExactlyOnceUpTo(job.inputRead(savepoint));

        // when the job resumes: every subtask restarts from the savepoint, and more input comes
        job.resume();
        produce(1_000);

        // then no sink went back behind its output, and every record is counted exactly once
        for (String sink : List.of("sink-0", "sink-1")) {
            assertThat(job.restorePlan(sink)).map(RestorePlan::verdict).hasValue(Verdict.ALREADY_COMMITTED);
        }
        awaitExactlyOnce();
    }

    @Test
    void shouldEndTheInputAtADrainedStopAndCommitEverythingBeforeItOnce() throws Exception {
        // given a running job with more input in flight
        job.start();
        produce(1_000);
        awaitCommittedAtLeast(1);
        produce(1_000);

        // when it stops with drain
        long savepoint = job.stop(true, Set.of());

        // then every subtask ends, the sources' snapshots say their input ended, and all read is committed once
        awaitStopped(job.names().toArray(String[]::new));
        long read = job.inputRead(savepoint);
        assertThat(job.sourceState(savepoint, 0).ended()).isTrue();
        assertThat(job.sourceState(savepoint, 1).ended()).isTrue();
        awaitCommittedExactlyOnceUpTo(read);

        // and when the job is resumed from the drained savepoint anyway, its sources read nothing more
        job.resume();
        produce(500);
        assertThat(((KafkaSourceTask) job.subtask("source-0")).inputEnded()).isTrue();
        assertThat(job.checkpoint()).isTrue();
        assertThat(job.checkpoint()).isTrue();
        assertThat(job.inputRead(job.latestCompleted())).isEqualTo(read);
        assertThat(job.sourceState(job.latestCompleted(), 0).ended()).isTrue();
        assertCommittedExactlyOnceUpTo(read);
    }
}
