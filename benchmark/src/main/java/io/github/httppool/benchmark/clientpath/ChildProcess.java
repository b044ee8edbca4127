package io.github.httppool.benchmark.clientpath;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** A child JVM that takes commands on its standard input and answers with lines on its standard output. */
final class ChildProcess implements AutoCloseable {

	private final String name;

	private final Process process;

	private final BufferedReader out;

	private final PrintWriter in;

	ChildProcess(String name, List<String> command) throws IOException {
		this.name = name;
		this.process = new ProcessBuilder(command).redirectErrorStream(true).start();
		this.out = new BufferedReader(new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8));
		this.in = new PrintWriter(this.process.getOutputStream(), true, StandardCharsets.UTF_8);
	}

	void send(String line) {
		this.in.println(line);
	}

	/**
	 * Read up to a line starting with {@code prefix}; a line before it that {@code handled} does not take is printed
	 * to standard error.
	 * @return the rest of that line
	 * @throws IOException if the child ends first
	 */
	String expect(String prefix, Predicate<String> handled) throws IOException {
		String line;
		while ((line = this.out.readLine()) != null) {
			if (line.startsWith(prefix)) {
				return line.substring(prefix.length());
			}
			if (!handled.test(line)) {
				System.err.println(this.name + ": " + line);
			}
		}
		throw new IOException("the JVM of " + this.name + " ended before it printed " + prefix.trim());
	}

	/** Close its standard input, which ends it, and wait for it. */
	@Override
	public void close() {
		this.in.close();
		try {
			if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.process.destroyForcibly();
		}
	}

}
