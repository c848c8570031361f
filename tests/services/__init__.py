"""Tests of the services layer."""
