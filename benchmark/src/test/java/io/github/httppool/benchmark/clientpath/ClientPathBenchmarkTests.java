package io.github.httppool.benchmark.clientpath;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The {@link ClientPathBenchmark}'s options, and a very short run of each of its modes (plain HTTP with every
 * variant, HTTPS under Java Flight Recorder, virtual threads or their message before Java 21), so that a broken
 * benchmark shows in the build. The figures of such short runs mean nothing.
 */
class ClientPathBenchmarkTests {

	private static final String[] SHORT = { "--threads=4", "--rounds=1", "--round-ms=100", "--ramp-ms=50",
			"--warmup-ms=200", "--http.pool.warmup.rehearsal.enabled=false" };

	@TempDir
	Path temp;

	@Test
	void parsesOptions() {
		assertThat(parse()).isEqualTo(new ClientPathBenchmark.Options(50, false, "https", 10, Duration.ofSeconds(1),
				Duration.ofMillis(300), Duration.ofSeconds(10), List.of("starter", "hand-built", "hand-built-bare"),
				null, List.of(), false, 1, null, 0, null));
		assertThat(parse("--threads=200", "--virtual", "--scheme=http", "--rounds=6", "--round-ms=2000",
				"--ramp-ms=100", "--warmup-ms=500", "--variants=hand-built,starter", "--http.pool.max-total=10"))
			.isEqualTo(new ClientPathBenchmark.Options(200, true, "http", 6, Duration.ofSeconds(2),
					Duration.ofMillis(100), Duration.ofMillis(500), List.of("hand-built", "starter"), null,
					List.of("--http.pool.max-total=10"), false, 1, null, 0, null));
		assertThat(parse("--jvm-per-variant").jvmPerVariant()).isTrue();
		assertThat(parse("--jvm-per-variant", "--jfr=x.jfr").jvmPerVariant()).isFalse();
		assertThat(parse("--forks=3")).satisfies((options) -> {
			assertThat(options.forks()).isEqualTo(3);
			assertThat(options.jvmPerVariant()).isTrue();
		});
		assertThat(parse("--forks=3", "--jfr=x.jfr").forks()).isEqualTo(1);
		assertThat(parse("--jfr=x.jfr").variants()).containsExactly("starter");
		assertThat(parse("--jfr=x.jfr", "--variants=hand-built,starter").variants()).containsExactly("hand-built");
		assertThatIllegalArgumentException().isThrownBy(() -> parse("--scheme=ftp"));
		assertThatIllegalArgumentException().isThrownBy(() -> parse("--variants=starter,starter"));
		assertThatIllegalArgumentException().isThrownBy(() -> parse("--variants=jdk"));
		assertThatIllegalArgumentException().isThrownBy(() -> parse("--threads=0"));
		assertThatIllegalArgumentException().isThrownBy(() -> parse("--virtual=yes"));
		assertThatIllegalArgumentException().isThrownBy(() -> parse("--jfr="));
		assertThatIllegalArgumentException().isThrownBy(() -> parse("--worker=jdk"));
		assertThatIllegalArgumentException().isThrownBy(() -> parse("--forks=0"));
	}

	@Test
	void runsEveryVariantOverPlainHttp() throws Exception {
		String output = run("--scheme=http",
				"--variants=starter,hand-built,hand-built-bare,starter-unobserved,hand-built-template,starter-twin");
		assertThat(output).contains("HTTP on loopback (upstream in its own JVM)", "round 1:", "CPU vs starter");
		for (String variant : ClientPathBenchmark.VARIANTS) {
			assertThat(output).containsPattern("(?m)^" + variant + " +\\d");
		}
	}

	@Test
	void runsEachVariantInAJvmOfItsOwnOverHttpsInTwoForks() throws Exception {
		String output = run("--scheme=https", "--forks=2", "--variants=starter,hand-built");
		assertThat(output).contains("HTTPS on loopback", "a JVM per variant, started anew for each of 2 forks",
				"fork 1 round 1:", "fork 2 round 1:", "CPU vs starter");
		assertThat(output).containsPattern("(?m)^fork 1, median CPU ratio to starter:  hand-built [\\d.]+ \\[")
			.containsPattern("(?m)^fork 2, median CPU ratio to starter:  hand-built [\\d.]+ \\[");
		assertThat(output).containsPattern("(?m)^starter +\\d").containsPattern("(?m)^hand-built +\\d");
		assertThat(output).containsPattern("hand-built [\\d.]+ us [\\d]+ B [\\d]+/s");
	}

	@Test
	void profilesTheStarterOverHttps() throws Exception {
		Path recording = this.temp.resolve("starter.jfr");
		String output = run("--scheme=https", "--jfr=" + recording);
		assertThat(output).contains("HTTPS on loopback", "profile of the starter variant", "execution samples:",
				"allocation samples:");
		assertThat(output).doesNotContainPattern("(?m)^hand-built");
		assertThat(recording).isNotEmptyFile();
	}

	@Test
	void runsOnVirtualThreadsOrSaysWhichJavaItNeeds() throws Exception {
		String output = run("--scheme=http", "--virtual", "--variants=starter,hand-built");
		if (ClientPathBenchmark.virtualThreadFactory() != null) {
			assertThat(output).contains("4 virtual callers").containsPattern("(?m)^hand-built +\\d");
		}
		else {
			assertThat(output).contains("--virtual needs Java 21 or later");
		}
	}

	private static ClientPathBenchmark.Options parse(String... args) {
		return ClientPathBenchmark.Options.parse(args);
	}

	private static String run(String... args) throws Exception {
		String[] all = new String[SHORT.length + args.length];
		System.arraycopy(SHORT, 0, all, 0, SHORT.length);
		System.arraycopy(args, 0, all, SHORT.length, args.length);
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		PrintStream out = System.out;
		System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
		try {
			ClientPathBenchmark.main(all);
		}
		finally {
			System.setOut(out);
		}
		String output = bytes.toString(StandardCharsets.UTF_8);
		System.out.print(output);
		return output;
	}

}
