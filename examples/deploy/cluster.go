package main

import (
	"fmt"
	"sync"
)

// Cluster is the example's stand-in for a deployment system: how many pods
// each service runs in each environment, and every deploy made.
type Cluster struct {
	mu       sync.Mutex
	pods     map[string]map[Environment]int
	deployed []Plan
}

// Plan is one deploy: the service, where, and how many pods it restarts.
type Plan struct {
	Service     string      `json:"service"`
	Environment Environment `json:"environment"`
	Pods        int         `json:"pods"`
}

// newCluster returns the example's inventory: api runs 2 pods in staging and
// 12 in production, web 1 and 6.
func newCluster() *Cluster {
	return &Cluster{pods: map[string]map[Environment]int{
		"api": {Staging: 2, Production: 12},
		"web": {Staging: 1, Production: 6},
	}}
}

// errUnknownService is what Plan returns for a service not in the inventory.
type errUnknownService string

func (e errUnknownService) Error() string {
	return fmt.Sprintf("unknown service %q (known: api, web)", string(e))
}

// Plan computes the deploy of service to env. It reads the inventory and
// changes nothing.
func (c *Cluster) Plan(service string, env Environment) (Plan, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	envs, ok := c.pods[service]
	if !ok {
		return Plan{}, errUnknownService(service)
	}
	return Plan{Service: service, Environment: env, Pods: envs[env]}, nil
}

// Deploy carries out p: the side effect, recorded.
func (c *Cluster) Deploy(p Plan) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.deployed = append(c.deployed, p)
}

// Deployed returns every deploy made, in order.
func (c *Cluster) Deployed() []Plan {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Plan(nil), c.deployed...)
}

// SetPods changes how many pods service runs in env (a scale-up between two
// rounds, in tests).
func (c *Cluster) SetPods(service string, env Environment, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pods[service] == nil {
		c.pods[service] = map[Environment]int{}
	}
	c.pods[service][env] = n
}
