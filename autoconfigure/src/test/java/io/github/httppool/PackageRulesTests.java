package io.github.httppool;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The library's packages form layers: {@code pool} at the bottom, each concern above it
 * ({@code metrics}, {@code warmup}, {@code actuate}) depending only downwards, and
 * {@code autoconfigure} on top wiring the beans.
 */
class PackageRulesTests {

	private static JavaClasses classes;

	@BeforeAll
	static void importLibraryClasses() {
		classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("io.github.httppool");
	}

	@Test
	void eachLayerDependsOnlyOnTheLayersBelowIt() {
		layeredArchitecture().consideringOnlyDependenciesInLayers()
			.layer("pool").definedBy("io.github.httppool.pool..")
			.layer("metrics").definedBy("io.github.httppool.metrics..")
			.layer("warmup").definedBy("io.github.httppool.warmup..")
			.layer("advisor").definedBy("io.github.httppool.advisor..")
			.layer("actuate").definedBy("io.github.httppool.actuate..")
			.layer("autoconfigure").definedBy("io.github.httppool.autoconfigure..")
			.whereLayer("autoconfigure").mayNotBeAccessedByAnyLayer()
			.whereLayer("metrics").mayOnlyBeAccessedByLayers("autoconfigure")
			.whereLayer("warmup").mayOnlyBeAccessedByLayers("autoconfigure")
			.whereLayer("actuate").mayOnlyBeAccessedByLayers("autoconfigure")
			.whereLayer("advisor").mayOnlyBeAccessedByLayers("actuate", "autoconfigure")
			.whereLayer("pool").mayOnlyBeAccessedByLayers("metrics", "warmup", "advisor", "actuate", "autoconfigure")
			.check(classes);
	}

	@Test
	void noPackagesDependOnEachOtherInACycle() {
		slices().matching("io.github.httppool.(**)").should().beFreeOfCycles().check(classes);
	}

	@Test
	void theAutoConfigurationRootDoesNotReachIntoItsConcernPackages() {
		noClasses().that()
			.resideInAPackage("io.github.httppool.autoconfigure")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.github.httppool.autoconfigure.*..")
			.check(classes);
	}

	@Test
	void onlyTheMeterBinderAndItsWiringUseMicrometerMeters() {
		noClasses().that()
			.resideOutsideOfPackages("io.github.httppool.metrics..", "io.github.httppool.autoconfigure..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("io.micrometer.core..")
			.check(classes);
	}

	@Test
	void onlyTheActuatorPackagesUseSpringBootActuator() {
		noClasses().that()
			.resideOutsideOfPackages("io.github.httppool.actuate..", "io.github.httppool.autoconfigure.actuate..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("org.springframework.boot.actuate..")
			.check(classes);
	}

	@Test
	void thePoolUsesNoAutoConfigurationOrBinding() {
		noClasses().that()
			.resideInAPackage("io.github.httppool.pool..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework.boot.autoconfigure..", "org.springframework.boot.context.properties..")
			.check(classes);
	}

}
