// Package helm_test renders the chart with Helm's own engine and decodes
// every manifest strictly into the Kubernetes API types (an unknown or
// mistyped field fails, as kubeconform would fail it against the schemas),
// then checks what the deployment shape needs.
package helm_test

import (
	"fmt"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// render renders the chart as `helm template` would, with overrides.
func render(t *testing.T, overrides map[string]any) (map[string]string, error) {
	t.Helper()
	ch, err := loader.Load("rounds")
	if err != nil {
		t.Fatal(err)
	}
	vals, err := chartutil.ToRenderValues(ch, overrides,
		chartutil.ReleaseOptions{Name: "prod", Namespace: "learning", IsInstall: true}, chartutil.DefaultCapabilities)
	if err != nil {
		t.Fatal(err)
	}
	return engine.Render(ch, vals)
}

type manifests struct {
	deployments map[string]*appsv1.Deployment
	hpas        map[string]*autoscalingv2.HorizontalPodAutoscaler
	jobs        []*batchv1.Job
	services    []*corev1.Service
	accounts    []*corev1.ServiceAccount
}

// decode splits the rendered files into documents and decodes each into
// its API type, strictly.
func decode(t *testing.T, files map[string]string) manifests {
	t.Helper()
	m := manifests{deployments: map[string]*appsv1.Deployment{}, hpas: map[string]*autoscalingv2.HorizontalPodAutoscaler{}}
	for name, text := range files {
		if !strings.HasSuffix(name, ".yaml") {
			continue
		}
		for _, doc := range strings.Split(text, "\n---") {
			if strings.TrimSpace(strings.TrimPrefix(doc, "---")) == "" {
				continue
			}
			var head struct{ APIVersion, Kind string }
			if err := yaml.Unmarshal([]byte(doc), &head); err != nil {
				t.Fatalf("%s: %v\n%s", name, err, doc)
			}
			strict := func(v any) {
				if err := yaml.UnmarshalStrict([]byte(doc), v); err != nil {
					t.Fatalf("%s: %s %s does not match the API: %v\n%s", name, head.APIVersion, head.Kind, err, doc)
				}
			}
			switch head.APIVersion + " " + head.Kind {
			case "apps/v1 Deployment":
				d := &appsv1.Deployment{}
				strict(d)
				m.deployments[d.Labels["app.kubernetes.io/component"]] = d
			case "autoscaling/v2 HorizontalPodAutoscaler":
				h := &autoscalingv2.HorizontalPodAutoscaler{}
				strict(h)
				m.hpas[h.Spec.ScaleTargetRef.Name] = h
			case "batch/v1 Job":
				j := &batchv1.Job{}
				strict(j)
				m.jobs = append(m.jobs, j)
			case "v1 Service":
				s := &corev1.Service{}
				strict(s)
				m.services = append(m.services, s)
			case "v1 ServiceAccount":
				a := &corev1.ServiceAccount{}
				strict(a)
				m.accounts = append(m.accounts, a)
			default:
				t.Fatalf("%s: unexpected %s %s", name, head.APIVersion, head.Kind)
			}
		}
	}
	return m
}

func TestChartRendersValidManifests(t *testing.T) {
	files, err := render(t, map[string]any{"image": map[string]any{"tag": "1.2.3"}})
	if err != nil {
		t.Fatal(err)
	}
	m := decode(t, files)

	roles := map[string]string{"api": "serve", "worker": "worker", "scheduler": "scheduler"}
	if len(m.deployments) != len(roles) {
		t.Fatalf("deployments: %v", keys(m.deployments))
	}
	for component, role := range roles {
		d := m.deployments[component]
		if d == nil {
			t.Fatalf("no %s deployment", component)
		}
		pod := d.Spec.Template.Spec
		c := pod.Containers[0]
		if got := fmt.Sprint(c.Args); got != "["+role+"]" {
			t.Errorf("%s runs %s, want rounds %s", component, got, role)
		}
		if c.Image != "ghcr.io/roundsedu/rounds:1.2.3" {
			t.Errorf("%s image %s", component, c.Image)
		}
		for k, v := range d.Spec.Selector.MatchLabels {
			if d.Spec.Template.Labels[k] != v {
				t.Errorf("%s: selector %s=%s does not select its own pods", component, k, v)
			}
		}
		if len(c.EnvFrom) != 1 || c.EnvFrom[0].SecretRef == nil || c.EnvFrom[0].SecretRef.Name != "rounds" {
			t.Errorf("%s: secrets must come by reference from the existing Secret: %+v", component, c.EnvFrom)
		}
		if pod.SecurityContext == nil || pod.SecurityContext.RunAsNonRoot == nil || !*pod.SecurityContext.RunAsNonRoot {
			t.Errorf("%s: not forced non-root", component)
		}
		if c.LivenessProbe == nil {
			t.Errorf("%s: no liveness probe", component)
		}
	}
	api := m.deployments["api"].Spec.Template.Spec.Containers[0]
	if api.ReadinessProbe == nil || api.ReadinessProbe.HTTPGet == nil || api.ReadinessProbe.HTTPGet.Path != "/api/health" {
		t.Errorf("api readiness must be /api/health: %+v", api.ReadinessProbe)
	}
	if r := m.deployments["scheduler"].Spec.Replicas; r == nil || *r != 1 {
		t.Errorf("scheduler replicas %v, want 1", r)
	}
	for _, c := range []string{"api", "worker"} {
		name := "prod-rounds-" + c
		if m.hpas[name] == nil {
			t.Errorf("no HPA for %s (have %v)", name, keys(m.hpas))
		}
		if m.deployments[c].Spec.Replicas != nil {
			t.Errorf("%s sets replicas while its HPA scales it", c)
		}
	}
	if len(m.hpas) != 2 {
		t.Errorf("HPAs: %v", keys(m.hpas))
	}
	if len(m.jobs) != 1 {
		t.Fatalf("jobs: %d", len(m.jobs))
	}
	job := m.jobs[0]
	if job.Annotations["helm.sh/hook"] != "pre-install,pre-upgrade" || fmt.Sprint(job.Spec.Template.Spec.Containers[0].Args) != "[migrate]" {
		t.Errorf("the migration must be a pre-install/pre-upgrade hook running rounds migrate: %v %v",
			job.Annotations, job.Spec.Template.Spec.Containers[0].Args)
	}
	if job.Spec.Template.Spec.ServiceAccountName != "" {
		t.Errorf("the hook runs before the chart's ServiceAccount exists; it must not name it")
	}
	if len(m.services) != 1 || m.services[0].Spec.Selector["app.kubernetes.io/component"] != "api" {
		t.Errorf("the Service must select the API pods only: %+v", m.services)
	}
}

func TestChartWithoutAutoscalingSetsReplicas(t *testing.T) {
	off := map[string]any{"enabled": false}
	files, err := render(t, map[string]any{"api": map[string]any{"autoscaling": off, "replicas": 3},
		"worker": map[string]any{"autoscaling": off}})
	if err != nil {
		t.Fatal(err)
	}
	m := decode(t, files)
	if len(m.hpas) != 0 {
		t.Errorf("HPAs rendered while disabled: %v", keys(m.hpas))
	}
	if r := m.deployments["api"].Spec.Replicas; r == nil || *r != 3 {
		t.Errorf("api replicas %v, want 3", r)
	}
}

func TestChartRefusesToRenderWithoutTheSecret(t *testing.T) {
	_, err := render(t, map[string]any{"secrets": map[string]any{"existingSecret": ""}})
	if err == nil || !strings.Contains(err.Error(), "secrets.existingSecret") {
		t.Fatalf("want a render error naming secrets.existingSecret, got %v", err)
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
