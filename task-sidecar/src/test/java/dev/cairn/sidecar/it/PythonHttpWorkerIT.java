package dev.cairn.sidecar.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.coordinator.testbed.OptionalTool;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.StateHandle;
import dev.cairn.sidecar.app.SidecarConfigCopies;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python worker of {@code docs/examples/http_worker.py}, run by {@code python3} as a child process, behind a real
 * sidecar's HTTP hook, with the real coordinator: what the documentation shows a worker in another language
 * doing, done. Skipped, naming the package to install, where python3 is not on the {@code PATH}; failing instead
 * under {@code -Dcairn.python=required} ({@link OptionalTool#PYTHON}), which {@code .ci/run} passes.
 */
class PythonHttpWorkerIT extends SidecarTestBase {

    @Test
    void shouldCompleteCheckpointsWithTheStateThePythonWorkerReportedWhenItServesTheHttpHook(@TempDir Path dir)
            throws Exception {
        Path python = OptionalTool.PYTHON.assumeInstalled().get(0);
        String job = CoordinatorTestBed.uniqueJobId("python");
        PythonWorker worker = PythonWorker.start(python, dir);
        try {
            bed.register(Events.job(job, 300, 10_000, "py"));
            sidecars.start(SidecarConfigCopies.withHttpHook(sidecars.config(job, "py", 0), worker.url(),
                    Duration.ofSeconds(5)));

            CheckpointCompleted third = bed.awaitJournal(CheckpointCompleted.class,
                    c -> c.getJobId().equals(job) && c.getCheckpointId() == 3);

            StateHandle handle = bed.states(third).get(0).getHandle();
            PythonWorker.Snapshot reported = worker.snapshot(3);
            assertThat(handle.getLocation()).isEqualTo(reported.location());
            assertThat(handle.getSizeBytes()).isEqualTo(reported.sizeBytes());
            assertThat(Path.of(URI.create(handle.getLocation()))).startsWith(worker.stateDir())
                    .hasContent(Long.toString(reported.value()));
            Awaitility.await().atMost(CoordinatorTestBed.WAIT)
                    .until(() -> worker.lines().contains("checkpoint 3 COMPLETED"));
            assertThat(worker.restores()).first().isEqualTo(new PythonWorker.Restore(1, 0, -1));
        } finally {
            worker.stop();
        }
    }

    @Test
    void shouldRestoreThePythonWorkerFromTheNewestCheckpointWhenItsSidecarRestarts(@TempDir Path dir)
            throws Exception {
        Path python = OptionalTool.PYTHON.assumeInstalled().get(0);
        String job = CoordinatorTestBed.uniqueJobId("python-restore");
        PythonWorker worker = PythonWorker.start(python, dir);
        try {
            bed.register(Events.job(job, 300, 10_000, "py"));
            sidecars.start(SidecarConfigCopies.withHttpHook(sidecars.config(job, "py", 0), worker.url(),
                    Duration.ofSeconds(5)));
            bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job) && c.getCheckpointId() == 2);

            sidecars.stopAll();
            sidecars.start(SidecarConfigCopies.withHttpHook(sidecars.config(job, "py", 0), worker.url(),
                    Duration.ofSeconds(5)));

            PythonWorker.Restore restore = Awaitility.await().atMost(CoordinatorTestBed.WAIT)
                    .until(() -> worker.restores().stream().skip(1).findFirst(), found -> found.isPresent())
                    .orElseThrow();
            assertThat(restore.checkpointId()).isGreaterThanOrEqualTo(2);
            assertThat(restore.value()).isEqualTo(worker.snapshot(restore.checkpointId()).value());
            CheckpointCompleted next = bed.awaitJournal(CheckpointCompleted.class,
                    c -> c.getJobId().equals(job) && c.getCheckpointId() > restore.checkpointId());
            List<PythonWorker.Snapshot> sinceRestore = worker.snapshotsAfter(restore);
            assertThat(sinceRestore).first().extracting(PythonWorker.Snapshot::value).isEqualTo(restore.value() + 1);
            assertThat(bed.states(next).get(0).getHandle().getLocation())
                    .isEqualTo(worker.snapshot(next.getCheckpointId()).location());
        } finally {
            worker.stop();
        }
    }
}
