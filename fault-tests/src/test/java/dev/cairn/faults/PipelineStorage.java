package dev.cairn.faults;

import dev.cairn.kit.storage.S3Settings;
import dev.cairn.pipeline.CheckpointLocation;
import dev.cairn.pipeline.S3Environment;
import dev.cairn.s3.S3ProxyServer;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where a pipeline test keeps its checkpoints and savepoints: in a run's directory, or in a bucket of an
 * {@link S3ProxyServer} the test started (which the test closes). In: the directory or the server. Out: the job spec's
 * storage base, the savepoints' locations, the environment variables the worker processes need to reach it, and,
 * for S3, what the bucket holds under a job's prefix, read from the server's store.
 *
 * @param checkpoints the checkpoints' storage base
 * @param savepoints where savepoints go: {@code <savepoints>/<name>}
 * @param workerEnvironment the variables every worker process gets
 * @param s3 the server, for S3
 */
record PipelineStorage(CheckpointLocation checkpoints, String savepoints, Map<String, String> workerEnvironment,
        Optional<S3ProxyServer> s3) {

    /** Checkpoints and savepoints under {@code dir}. */
    static PipelineStorage files(Path dir) {
        return new PipelineStorage(CheckpointLocation.of(dir.resolve("checkpoints")),
                CheckpointLocation.of(dir.resolve("savepoints")).uri(), Map.of(), Optional.empty());
    }

    /** Checkpoints under {@code s3://<bucket>/checkpoints}, savepoints under {@code s3://<bucket>/savepoints}. */
    static PipelineStorage s3(S3ProxyServer server) {
        return new PipelineStorage(CheckpointLocation.parse(server.location("checkpoints")),
                server.location("savepoints"), S3Environment.variables(S3Settings.fromProperties(server.settings())),
                Optional.of(server));
    }

    /** Where savepoint {@code name} goes. */
    String savepoint(String name) {
        return savepoints + "/" + name;
    }

    /** The key prefix of job {@code jobId}'s checkpoints in the bucket: {@code checkpoints/<job>/}. */
    String jobPrefix(String jobId) {
        String base = checkpoints.uri();
        return base.substring(base.indexOf('/', "s3://".length()) + 1) + "/" + jobId + "/";
    }

    /** What the bucket holds of job {@code jobId}'s checkpoints, for S3. */
    Optional<S3ProxyServer.StoredObjects> stored(String jobId) {
        return s3.map(server -> server.objects(jobPrefix(jobId)));
    }

    /** What the bucket holds under {@code savepoints}, for S3. */
    Optional<S3ProxyServer.StoredObjects> storedSavepoints() {
        return s3.map(server -> server.objects("savepoints/"));
    }
}
